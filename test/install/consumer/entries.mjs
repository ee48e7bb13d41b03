// A class exported by two entry points of a package is one class: `@yoake/pod/client` and
// `@yoake/pod/protocol` are subpaths of their own, bundled beside `@yoake/pod`, and a value made
// through one must be an instance of the other's export. Prints one JSON line.
import * as client from "@yoake/pod/client";
import * as pod from "@yoake/pod/protocol";

const refused = new client.PodProtocolError("invalid_params", "refused");
console.log(
  JSON.stringify({
    podClient: pod.PodClient === client.PodClient,
    protocolError: pod.PodProtocolError === client.PodProtocolError,
    instanceAcross: refused instanceof pod.PodProtocolError && refused instanceof Error,
    name: refused.name,
  }),
);
