async function notifyAll(users, send) {
  users.forEach(async (u) => { // want "Async callback passed to forEach"
    await send(u);
  });
  this.queue.items.forEach(async function (job) { await job.run(); }); // want "forEach"
  const active = users.filter(async (u) => await u.isActive()); // want "Async callback passed to filter"
  if (users.some(async (u) => u.admin)) { // want "some"
    return active;
  }
  return null;
}

function sync(users, send) {
  users.forEach(async (u) => { await send(u); }); // want "forEach"
}

// Near misses: none of these is reported.
async function fine(users, send) {
  await Promise.all(users.map(async (u) => send(u)));
  for (const u of users) {
    await send(u);
  }
  users.forEach((u) => send(u));
  const text = "users.forEach(async (u) => 1)";
  return text;
}

module.exports = { notifyAll, sync, fine };
