/**
 * The generated payloads of the hook escape suite (`pod-hook-escape.test.ts`): what the model
 * writes into package.json's test script and scripts/guard.sh before the hooks fire. Not a test file.
 */
import type { Server } from "node:net";

/** The bed's directories: the project, and around it what a hook must not reach. */
export interface EscapePlace {
  project: string;
  outside: string;
  base: string;
  home: string;
  vault: string;
  runtimeDir: string;
  stateDir: string;
}

export interface Listener {
  label: string;
  server: Server;
  /** How a payload reaches it: a socket path, `@name` for an abstract one, or `tcp:port`. */
  address: string;
}

/** One payload: the shell text both hook files get, and what it must reveal when it ran. */
export interface Payload {
  kind: string;
  body: (marker: string) => string;
}

/** The tail of most payloads: the marker as the last line of stderr, and a failure the alert shows. */
const fired = (marker: string) => `\necho ${marker} >&2\nexit 3\n`;

/**
 * The payloads, each a few lines of shell: writes outside the project and into it (14 ways to
 * write × 18 targets), reads of what the scope hides (6 ways out × 4 files), `.git` changes and
 * nested repositories, connections to each listener, and processes that try to stay behind.
 */
export function generatedPayloads(
  place: EscapePlace,
  listeners: readonly Listener[],
  { mark: MARK, linger: LINGER }: { mark: string; linger: number },
): Payload[] {
  const { project, outside, base, home, vault, stateDir } = place;
  const attempt = (kind: string, text: string): Payload => ({ kind, body: (marker) => text + fired(marker) });
  const writers = [
    (t: string) => `echo pwned > ${t}`,
    (t: string) => `printf pwned >> ${t}`,
    (t: string) => `touch ${t}`,
    (t: string) => `cp README.md ${t}`,
    (t: string) => `echo x > /tmp/x && mv /tmp/x ${t}`,
    (t: string) => `ln -sf /etc/passwd ${t}`,
    (t: string) => `echo pwned | tee ${t}`,
    (t: string) => `/usr/bin/python3 -c "open('${t}', 'w').write('pwned')"`,
    (t: string) => `perl -e 'open(my $f, ">", "${t}") or die $!; print $f "pwned"'`,
    (t: string) => `install -D README.md ${t}`,
    (t: string) => `dd if=/dev/zero of=${t} bs=1 count=4`,
    (t: string) => `mkdir -p ${t}.d && echo pwned > ${t}.d/x`,
    (t: string) => `sed -i s/o/0/ ${t}`,
    (t: string) => `truncate -s 0 ${t}`,
  ];
  const outsideTargets = [
    `${outside}/victim.txt`,
    `${outside}/new.txt`,
    "../outside/victim.txt",
    `${base}/escaped.txt`,
    `${home}/.bashrc`,
    `${home}/.ssh/authorized_keys`,
    `${stateDir}/yoake/planted`,
    `/etc/${MARK}`,
    `/var/tmp/${MARK}`,
    `/tmp/${MARK}`,
  ];
  const projectTargets = [
    "README.md",
    "src/index.js",
    "new.txt",
    "package.json",
    "scripts/guard.sh",
    ".yoake/manifest.toml",
    `${project}/made.txt`,
    "src/deep/new.js",
  ];
  const readers = [
    (t: string, m: string) => `echo ${m} >&2; cat ${t} >&2; exit 2`,
    (t: string, m: string) => `echo "{\\"action\\":\\"block\\",\\"reason\\":\\"${m} $(cat ${t})\\"}"; exit 0`,
    (t: string, m: string) => `echo ${m} >&2; base64 ${t} >&2; exit 2`,
    (t: string, m: string) =>
      `echo ${m} >&2; /usr/bin/python3 -c "import sys; sys.stderr.write(open('${t}').read())"; exit 2`,
    (t: string, m: string) => `echo ${m} >&2; grep -r . $(dirname ${t}) >&2; exit 2`,
    (t: string, m: string) => `cat ${t} > /tmp/s; cat /tmp/s >&2; echo ${m} >&2; exit 3`,
  ];
  const hidden = [
    "secret/key.txt",
    `${project}/private.txt`,
    `${vault}/token.txt`,
    `${home}/.ssh/id_ed25519`,
  ];
  const git = [
    "printf '[core]\\n\\tfsmonitor = touch /var/tmp/FSMON\\n' >> .git/config",
    "git config core.fsmonitor 'touch /var/tmp/FSMON'",
    "git config --global core.fsmonitor 'touch /var/tmp/FSMON'",
    "git config core.hooksPath scripts",
    "mkdir -p .git/hooks && printf '#!/bin/sh\\ntouch /var/tmp/HOOK\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit",
    "cp scripts/guard.sh .git/hooks/post-checkout",
    "echo 'ref: refs/heads/evil' > .git/HEAD",
    "mv .git .git-moved",
    "rm -rf .git",
    "git init -q sub",
    "mkdir -p src/.git && printf '[core]\\n\\tfsmonitor = touch /var/tmp/FSMON\\n' > src/.git/config",
    "git -C src init -q",
    "git init -q --bare nested.git",
    "ln -s /var/tmp .git/hooks-link",
  ];
  const connectors = (address: string): string[] => {
    if (address.startsWith("tcp:")) {
      const port = address.slice(4);
      return [
        `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port} && echo hi >&3'`,
        `curl -s --max-time 3 http://127.0.0.1:${port}/`,
        `/usr/bin/python3 -c "import socket; socket.create_connection(('127.0.0.1', ${port}), 3)"`,
      ];
    }
    const python = address.startsWith("@") ? `'\\0${address.slice(1)}'` : `'${address}'`;
    return [
      `/usr/bin/python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect(${python})"`,
      ...(address.startsWith("@")
        ? [`perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Peer => "\\0${address.slice(1)}") or die $!'`]
        : [
            `curl -s --max-time 3 --unix-socket ${address} http://x/`,
            `perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Peer => "${address}") or die $!'`,
          ]),
    ];
  };
  return [
    ...outsideTargets.flatMap((t) => writers.map((w) => attempt("write outside the project", w(t)))),
    ...projectTargets.flatMap((t) => writers.map((w) => attempt("write into the project", w(t)))),
    ...hidden.flatMap((t) =>
      readers.map((r): Payload => ({ kind: "read a hidden secret", body: (marker) => r(t, marker) })),
    ),
    ...git.map((command) => attempt("plant .git", command)),
    ...listeners.flatMap((l) => connectors(l.address).map((c) => attempt(`connect to ${l.label}`, c))),
    attempt("stay behind", `setsid sleep ${LINGER} & nohup sleep ${LINGER} >/dev/null 2>&1 &`),
  ];
}
