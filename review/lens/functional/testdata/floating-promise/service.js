const { writeFile } = require('node:fs/promises');
const fsp = require('fs/promises');
const fs = require('fs');

async function audit(event) {
  await fetch('/audit', { method: 'POST', body: JSON.stringify(event) });
}

class Store {
  async flush() {
    await writeFile('/tmp/store', 'x');
  }

  async put(key, value) {
    this.flush(); // want "Promise neither awaited nor handled"
    audit({ key }); // want "audit\(...\) returns a promise"
    fetch(`/keys/${key}`); // want "fetch\(...\) returns a promise"
    writeFile('/tmp/key', value) // want "writeFile"
    fsp.unlink('/tmp/old'); // want "fsp.unlink"
    fs.promises.rm('/tmp/x'); // want "fs.promises.rm"
    Promise.all([audit(1), audit(2)]); // want "Promise.all"
    return value;
  }
}

const handler = async (req) => {
  audit(req) // want "audit"
  await audit(req);
};

// Near misses: none of these is reported.

async function handled(req) {
  await audit(req);
  void audit(req);
  audit(req).catch(console.error);
  audit(req)
    .then(() => 1);
  const p = audit(req);
  await p;
  fs.readFileSync('/tmp/x');
  setTimeout(() => audit(req), 10);
  return audit(req);
}

function notAsync(req) {
  audit(req);
  fetch('/x');
}

async function shadowed() {
  load(); // load is also a sync function below
  const msg = "audit(x);";
  return msg;
}

function load() {}

class Other {
  async load() {}
}

module.exports = { handler, handled, notAsync, shadowed, Store };
