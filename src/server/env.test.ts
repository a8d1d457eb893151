import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { ConfigError, loadConfig } from "./env.ts";
import { DAILY_LIMITS } from "./lib/daily-quota.ts";

describe("loadConfig", () => {
  test("defaults", () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: "0.0.0.0",
      dataDir: "./data",
      publicUrl: null,
      jwtSecret: null,
      databaseUrl: null,
      uploadBucket: null,
      adminUsername: "admin",
      adminPassword: null,
      development: false,
      benchEndpoints: false,
      trustedProxies: [],
      writeLimit: { count: 60, windowSeconds: 60 },
      linkCheckInterval: 168,
      linkCheckIntervalSet: false,
      analytics: true,
      backupCron: null,
      backupKeep: null,
      backupDir: resolve("./data/backups"),
      testLoopbackLinkPort: null,
      dailyLimits: DAILY_LIMITS,
      idleTimeout: 30,
      checkpointEveryMs: 30_000,
    });
  });

  test("the link checker's test-only loopback port is a port number, or refused with a sentence saying it is for tests", () => {
    expect(loadConfig({ CAM_GUIDE_TEST_LOOPBACK_LINK_PORT: "24411" }).testLoopbackLinkPort).toBe(24411);
    for (const bad of ["0", "65536", "80;", "yes", "-1", "1.5"])
      expect(() => loadConfig({ CAM_GUIDE_TEST_LOOPBACK_LINK_PORT: bad })).toThrow(
        /CAM_GUIDE_TEST_LOOPBACK_LINK_PORT is for cam-guide's own tests only: unset it/,
      );
  });

  test("CAM_GUIDE_TEST_DAILY_LIMITS only lowers the daily limits, for tests; anything else stops the start", () => {
    expect(loadConfig({ CAM_GUIDE_TEST_DAILY_LIMITS: "visitors=40, results = 5" }).dailyLimits).toEqual({
      ...DAILY_LIMITS,
      visitors: 40,
      results: 5,
    });
    expect(loadConfig({ CAM_GUIDE_TEST_DAILY_LIMITS: "resultsFloor=1" }).dailyLimits.resultsFloor).toBe(1);
    for (const bad of [
      `visitors=${DAILY_LIMITS.visitors + 1}`,
      `resultsFloor=${DAILY_LIMITS.resultsFloor + 1}`,
      "visitors=0",
      "visitors=-1",
      "visitors=ten",
      "visitors",
      "everything=1",
      "__proto__=1",
      "maxClients=1.5",
    ])
      expect(() => loadConfig({ CAM_GUIDE_TEST_DAILY_LIMITS: bad })).toThrow(
        /CAM_GUIDE_TEST_DAILY_LIMITS \(for tests only\)/,
      );
  });

  test("WRITE_LIMIT=off lifts the daily limits per network, not those for everyone; the benchmarks' switch lifts all", () => {
    const off = loadConfig({ WRITE_LIMIT: "off" }).dailyLimits;
    expect(off.visitorsPerClient).toBe(Number.POSITIVE_INFINITY);
    expect(off.resultsPerClient).toBe(Number.POSITIVE_INFINITY);
    expect(off.newValuesPerClient).toBe(Number.POSITIVE_INFINITY);
    // No share shrinks under pressure either: one address may be every visitor.
    expect([off.visitorsFloor, off.resultsFloor, off.newValuesFloor]).toEqual(Array(3).fill(Number.POSITIVE_INFINITY));
    expect(off).toMatchObject({
      visitors: DAILY_LIMITS.visitors,
      results: DAILY_LIMITS.results,
      newValues: DAILY_LIMITS.newValues,
    });
    const bench = loadConfig({ CAM_GUIDE_BENCH: "1" }).dailyLimits;
    expect([bench.visitors, bench.results, bench.newValues, bench.resultsPerClient]).toEqual(
      Array(4).fill(Number.POSITIVE_INFINITY),
    );
  });

  test("the idle timeout is 30 s; only the tests' seam shortens it, never below 8 s", () => {
    expect(loadConfig({ CAM_GUIDE_TEST_IDLE_TIMEOUT: "8" }).idleTimeout).toBe(8);
    for (const bad of ["7", "31", "10.5", "soon"])
      expect(() => loadConfig({ CAM_GUIDE_TEST_IDLE_TIMEOUT: bad })).toThrow(ConfigError);
  });

  test("the log is checkpointed every 30 s; only the tests' seam shortens it, to a whole number of seconds from 1", () => {
    expect(loadConfig({ CAM_GUIDE_TEST_CHECKPOINT_SECONDS: "1" }).checkpointEveryMs).toBe(1000);
    for (const bad of ["0", "31", "0.5", "1e1", "soon"])
      expect(() => loadConfig({ CAM_GUIDE_TEST_CHECKPOINT_SECONDS: bad })).toThrow(
        /CAM_GUIDE_TEST_CHECKPOINT_SECONDS is for tests/,
      );
  });

  test("ANALYTICS=off turns counting off; anything but on or off is refused", () => {
    expect(loadConfig({ ANALYTICS: "off" }).analytics).toBe(false);
    expect(loadConfig({ ANALYTICS: "ON" }).analytics).toBe(true);
    expect(() => loadConfig({ ANALYTICS: "maybe" })).toThrow(/ANALYTICS must be "on" or "off"/);
  });

  test("reads every variable", () => {
    const config = loadConfig({
      PORT: "8080",
      HOST: "127.0.0.1",
      DATA_DIR: "/var/lib/cam-guide",
      PUBLIC_URL: "https://guide.example.com/",
      JWT_SECRET: "x".repeat(40),
      ADMIN_USERNAME: "owner",
      ADMIN_PASSWORD: "correct horse battery",
      NODE_ENV: "production",
    });
    expect(config).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      publicUrl: "https://guide.example.com",
      adminUsername: "owner",
      development: false,
    });
  });

  test("DATABASE_URL: a postgres:// or postgresql:// address, never echoed when refused", () => {
    const secret = "x".repeat(40);
    for (const url of ["postgres://u:p@db:5432/cam", "postgresql://u:p@db/cam", " POSTGRES://db/cam "])
      expect(loadConfig({ DATABASE_URL: url, JWT_SECRET: secret }).databaseUrl).toBe(url.trim());
    expect(loadConfig({ DATABASE_URL: "  " }).databaseUrl).toBeNull();
    const refused = (() => {
      try {
        loadConfig({ DATABASE_URL: "sqlite://p4ssw0rd@x", JWT_SECRET: secret });
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(refused).toContain("DATABASE_URL must be a PostgreSQL address");
    expect(refused).not.toContain("p4ssw0rd");
  });

  test("S3_BUCKET: uploads in a bucket, with its endpoint, region, credentials and prefix", () => {
    expect(loadConfig({}).uploadBucket).toBeNull();
    expect(
      loadConfig({
        S3_BUCKET: "cam",
        S3_ENDPOINT: "https://s3.example.com",
        S3_REGION: "eu-central-1",
        S3_ACCESS_KEY_ID: "key",
        S3_SECRET_ACCESS_KEY: "secret",
        S3_PREFIX: "site-one",
      }).uploadBucket,
    ).toEqual({
      bucket: "cam",
      endpoint: "https://s3.example.com",
      region: "eu-central-1",
      accessKeyId: "key",
      secretAccessKey: "secret",
      prefix: "site-one/",
    });
    // The machine's own credentials (an instance role) when none are given; uploads/ by default.
    expect(loadConfig({ S3_BUCKET: "cam" }).uploadBucket).toMatchObject({ accessKeyId: null, prefix: "uploads/" });
  });

  test("TRUSTED_PROXIES: addresses and CIDR ranges, comma-separated, spaces and empty entries ignored", () => {
    expect(loadConfig({ TRUSTED_PROXIES: " 127.0.0.1, ::1 ,,10.0.0.0/8, fd00::/8 " }).trustedProxies).toEqual([
      "127.0.0.1",
      "::1",
      "10.0.0.0/8",
      "fd00::/8",
    ]);
    expect(loadConfig({ TRUSTED_PROXIES: "  " }).trustedProxies).toEqual([]);
  });

  test("production unless NODE_ENV=development", () => {
    for (const NODE_ENV of [undefined, "", "production", "test", "staging"])
      expect(loadConfig({ NODE_ENV }).development).toBe(false);
    expect(loadConfig({ NODE_ENV: "development" }).development).toBe(true);
  });

  test.each([
    [{ PORT: "abc" }, "PORT must be a whole number"],
    [{ PORT: "70000" }, "PORT must be a whole number"],
    [{ PORT: "0" }, "PORT must be a whole number"],
    [{ PUBLIC_URL: "not a url" }, "PUBLIC_URL must be an http(s) URL"],
    [{ PUBLIC_URL: "ftp://x.example" }, "PUBLIC_URL must be an http(s) URL"],
    [{ JWT_SECRET: "short" }, "JWT_SECRET must be at least 32 characters"],
    [{ ADMIN_USERNAME: "a b" }, "ADMIN_USERNAME must be"],
    [{ DATABASE_URL: "mysql://u:secret@db/x", JWT_SECRET: "x".repeat(40) }, 'got one starting "mysql:"'],
    [{ DATABASE_URL: "postgres://u:secret@db/x" }, "JWT_SECRET is required with DATABASE_URL"],
    [{ S3_ENDPOINT: "http://127.0.0.1:9000" }, "S3_ENDPOINT is set but S3_BUCKET is not"],
    [{ S3_BUCKET: "b", S3_ENDPOINT: "minio:9000" }, "S3_ENDPOINT must be an http:// or https:// address"],
    [{ S3_BUCKET: "b", S3_ACCESS_KEY_ID: "key" }, "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together"],
    [{ ADMIN_PASSWORD: "tiny" }, "ADMIN_PASSWORD must be at least 12 characters"],
    [{ TRUSTED_PROXIES: "nginx" }, "TRUSTED_PROXIES must be a comma-separated list of IP addresses or CIDR ranges"],
    [{ TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/33, *" }, '(not valid: "10.0.0.0/33", "*")'],
    [{ TRUSTED_PROXIES: "127.0.0.1;::1" }, '"127.0.0.1;::1"'],
    ...[
      "60",
      "60/fortnight",
      "-1/minute",
      "0/minute",
      "1.5/minute",
      "60/0s",
      "60/2d",
      "60/25h",
      "sixty/minute",
      "on",
    ].map((raw) => [{ WRITE_LIMIT: raw }, "WRITE_LIMIT must be a number of writes per time"] as const),
    ...["weekly", "-1", "0.5", "8761", "1e3"].map(
      (raw) => [{ LINK_CHECK_INTERVAL: raw }, "LINK_CHECK_INTERVAL must be a number of hours"] as const,
    ),
  ])("%p is refused with a readable message", (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  test.each([
    ["60/minute", { count: 60, windowSeconds: 60 }],
    ["10/30s", { count: 10, windowSeconds: 30 }],
    [" 500 / HOUR ", { count: 500, windowSeconds: 3600 }],
    ["1/second", { count: 1, windowSeconds: 1 }],
    ["100000/24h", { count: 100_000, windowSeconds: 86_400 }],
    ["off", null],
    ["OFF", null],
    ["0", null],
  ])("WRITE_LIMIT=%p", (raw, writeLimit) => {
    expect(loadConfig({ WRITE_LIMIT: raw }).writeLimit).toEqual(writeLimit);
  });

  test.each([
    ["24", 24],
    [" 168 ", 168],
    ["1.5", 1.5],
    ["off", null],
    ["OFF", null],
    ["0", null],
  ])("LINK_CHECK_INTERVAL=%p", (raw, hours) => {
    expect(loadConfig({ LINK_CHECK_INTERVAL: raw }).linkCheckInterval).toEqual(hours);
    // Set, even to off: it wins over the schedule chosen in Settings.
    expect(loadConfig({ LINK_CHECK_INTERVAL: raw }).linkCheckIntervalSet).toBe(true);
  });

  test("lists every problem at once and never echoes a password", () => {
    try {
      loadConfig({ PORT: "x", ADMIN_PASSWORD: "sekrit" });
      throw new Error("expected a ConfigError");
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(2);
      expect((error as Error).message).not.toContain("sekrit");
    }
  });

  test.each([
    ["30 3 * * *", "30 3 * * *"],
    ["  */2   * * * * * ", "*/2 * * * * *"],
    ["OFF", "off"],
  ])("BACKUP_CRON=%p", (raw, cron) => {
    expect(loadConfig({ BACKUP_CRON: raw }).backupCron).toBe(cron);
  });

  test.each([
    ["nightly", /BACKUP_CRON must be a cron schedule or "off": "nightly" is not a schedule: .*5 fields/],
    ["30 3 * *", /"30 3 \* \*" is not a schedule: .*five, six, or seven/],
    ["0 30 3 * * * 2026", /requires exactly 5 or 6 parts/],
    ["61 3 * * *", /Invalid value for minute: 61/],
  ])("BACKUP_CRON=%p is refused, saying why", (raw, message) => {
    expect(() => loadConfig({ BACKUP_CRON: raw })).toThrow(message);
  });

  test("BACKUP_KEEP is 1 to 365; BACKUP_DIR defaults to DATA_DIR/backups, never DATA_DIR or its uploads", () => {
    expect(loadConfig({ BACKUP_KEEP: "2" }).backupKeep).toBe(2);
    for (const raw of ["0", "366", "-1", "7.5", "seven"])
      expect(() => loadConfig({ BACKUP_KEEP: raw })).toThrow(/BACKUP_KEEP must be a whole number .* from 1 to 365/);
    expect(loadConfig({ DATA_DIR: "/srv/site" }).backupDir).toBe("/srv/site/backups");
    expect(loadConfig({ DATA_DIR: "/srv/site", BACKUP_DIR: "/mnt/usb/site" }).backupDir).toBe("/mnt/usb/site");
    for (const dir of ["/srv/site", "/srv/site/uploads", "/srv/site/uploads/x"])
      expect(() => loadConfig({ DATA_DIR: "/srv/site", BACKUP_DIR: dir })).toThrow(
        /BACKUP_DIR must be a folder of its own/,
      );
    expect(() => loadConfig({ DATA_DIR: "/srv/site", BACKUP_DIR: "/srv" })).toThrow(
      /BACKUP_DIR must not hold DATA_DIR/,
    );
  });
});
