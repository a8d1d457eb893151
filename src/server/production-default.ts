// The server behaves as production unless told otherwise (NODE_ENV=development). Libraries
// read NODE_ENV once, when they load (Elysia's error details, React's build), so main.ts
// imports this module before anything else. env.ts still reads the configuration.
process.env.NODE_ENV ||= "production";
