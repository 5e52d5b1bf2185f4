import * as assert from "node:assert/strict";
import { pointsToLocalNetwork } from "../../../src/panel/local-address";

describe("links to the user's own machine or network", () => {
  const local = {
    "localhost by name": ["http://localhost/", "http://localhost:3000/admin", "http://LOCALHOST./", "https://app.localhost/", "http://a.b.localhost:8080/"],
    "IPv4 loopback": ["http://127.0.0.1/", "http://127.255.255.254/", "http://127.1/"],
    "IPv4 loopback in other spellings": ["http://2130706433/", "http://0x7f.1/", "http://0x7f000001/", "http://0177.0.0.1/", "http://017700000001/"],
    "the unspecified address": ["http://0.0.0.0/", "http://0/", "http://0.1.2.3/"],
    "private IPv4 ranges": ["http://10.0.0.1/", "http://10.255.255.255/", "http://172.16.0.1/", "http://172.31.255.255/", "http://192.168.1.1/", "http://100.64.0.1/", "http://100.127.255.255/"],
    "IPv4 link-local and cloud metadata": ["http://169.254.169.254/latest/meta-data/", "http://169.254.0.1/"],
    "IPv6 loopback and unspecified": ["http://[::1]/", "http://[0:0:0:0:0:0:0:1]:8080/", "http://[::]/"],
    "IPv6 unique local and link-local": ["http://[fc00::1]/", "http://[fd12:3456:789a::1]/", "http://[fe80::1]/", "http://[febf::1]/", "http://[fec0::1]/"],
    "IPv4 inside IPv6": ["http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://[::ffff:192.168.0.1]/", "http://[::127.0.0.1]/", "http://[64:ff9b::10.0.0.1]/"],
  };

  for (const [kind, urls] of Object.entries(local)) {
    it(`asks before opening ${kind}`, () => {
      for (const url of urls) assert.equal(pointsToLocalNetwork(url), true, url);
    });
  }

  it("opens public hosts and addresses without asking", () => {
    for (const url of [
      "https://example.com/",
      "https://localhost.example.com/",
      "https://mylocalhost/",
      "http://8.8.8.8/",
      "http://11.0.0.1/",
      "http://172.15.255.255/",
      "http://172.32.0.1/",
      "http://192.169.0.1/",
      "http://169.255.0.1/",
      "http://100.128.0.1/",
      "http://126.255.255.255/",
      "http://128.0.0.1/",
      "http://[2001:db8::1]/",
      "http://[2606:4700:4700::1111]/",
      "http://[2::1]/",
      "http://[fe00::1]/",
      "http://[::ffff:8.8.8.8]/",
      "http://[64:ff9b::8.8.8.8]/",
    ]) {
      assert.equal(pointsToLocalNetwork(url), false, url);
    }
  });

  it("says no for what is not a URL (the conversation refuses those before asking)", () => {
    for (const url of ["", "not a url", "http://[::1/"]) assert.equal(pointsToLocalNetwork(url), false, url);
  });
});
