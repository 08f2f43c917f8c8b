#!/usr/bin/env node
'use strict';

const http = require("http");
const { readFile } = require("fs/promises");

const PORT = process.env.PORT || 8080;
const ROUTE = /^\/api\/(\w+)\/?$/; // a regex with a { brace

/**
 * Router maps paths to handlers.
 */
class Router {
  static instance = null;

  constructor(prefix = "/") {
    this.prefix = prefix;
    this.routes = new Map();
  }

  /** Registers a handler. */
  add(path, handler) {
    this.routes.set(this.prefix + path, handler);
    return this;
  }

  get count() {
    return this.routes.size;
  }

  set count(_) {
    throw new Error("count is read-only");
  }

  static shared() {
    return (Router.instance ??= new Router());
  }

  async *entries() {
    for (const e of this.routes) yield e;
  }

  async handle(req, res) {
    const match = ROUTE.exec(req.url);
    const handler = match && this.routes.get(match[1]);
    if (!handler) {
      res.statusCode = 404;
      return res.end(`no route for ${req.url}: ${describe({ url: req.url })}`);
    }
    await handler(req, res);
  }
}

function describe(obj) {
  return JSON.stringify(obj, null, 2);
}

async function serveFile(res, path) {
  const body = await readFile(path, "utf8"); // "function notReal() {}"
  res.end(body);
}

const notFound = function (req, res) {
  res.statusCode = 404;
  res.end("not found");
};

let requests = 0,
  started = Date.now();

exports.createServer = (router) =>
  http.createServer((req, res) => {
    requests++;
    router.handle(req, res);
  });

module.exports.version = function version() {
  return "1.0.0";
};

if (require.main === module) {
  const router = Router.shared().add("files", (req, res) => serveFile(res, "index.html"));
  exports.createServer(router).listen(PORT);
}
