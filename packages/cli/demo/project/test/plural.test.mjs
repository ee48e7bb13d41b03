import assert from "node:assert/strict";
import { test } from "node:test";
import { countOf } from "../src/plural.mjs";

test("one request is singular", () => assert.equal(countOf(1, "request"), "1 request"));
test("three requests are plural", () => assert.equal(countOf(3, "request"), "3 requests"));
