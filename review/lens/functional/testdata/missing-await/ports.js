// Real shapes: a port probe tested without await, a class's async
// permission check negated, and a lookup stored and then tested.
const net = require("net");

async function isPortFree(port) {
  return new Promise((resolve) => {
    const s = net.createServer().once("error", () => resolve(false));
    s.listen(port, () => s.close(() => resolve(true)));
  });
}

async function findFreePort(port) {
  for (;;) {
    if (isPortFree(port)) break; // want "isPortFree\(...\) is async, and this code tests the promise"
    port++;
  }
  return port;
}

class Command {
  async permissionCheck(msg) {
    return msg.member.roles.includes("admin");
  }

  async findComment(id) {
    return this.db.get(id);
  }

  async execute(msg) {
    if (!this.permissionCheck(msg)) { // want "this.permissionCheck\(...\) is async"
      return;
    }
    const comment = this.findComment(msg.id); // want "stores its promise in comment, which is negated"
    if (!comment) {
      throw new Error("not found");
    }
    const other = this.findComment(msg.ref); // want "has its .author read"
    console.log(other.author);

    // Near misses: awaited, returned, chained, passed on, stored and
    // awaited later.
    if (!(await this.permissionCheck(msg))) return;
    if (await isPortFree(1)) return;
    isPortFree(2).then((ok) => ok);
    const pending = this.findComment(3);
    const [a] = await Promise.all([pending]);
    const later = this.findComment(4);
    await later;
    return this.findComment(a);
  }
}

module.exports = { findFreePort, Command };
