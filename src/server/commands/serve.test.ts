import { describe, expect, test } from "bun:test";
import { listeningLine } from "./serve.ts";

describe("the line that says where the server listens", () => {
  test("bound to every IPv4 address, it says so and gives this machine's own address", () => {
    expect(listeningLine("0.0.0.0", 3000)).toBe(
      "cam-guide listening on port 3000 of every IPv4 address of this machine (HOST=0.0.0.0); from this machine: http://localhost:3000",
    );
  });
  test("bound to every address, IPv6 included", () => {
    expect(listeningLine("::", 8080)).toContain("every IPv4 and IPv6 address of this machine (HOST=::)");
  });
  test("bound to one address, that address", () => {
    expect(listeningLine("127.0.0.1", 3000)).toBe("cam-guide listening on http://127.0.0.1:3000");
    expect(listeningLine("::1", 3000)).toBe("cam-guide listening on http://[::1]:3000");
  });
});
