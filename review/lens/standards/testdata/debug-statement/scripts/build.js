// Near miss: scripts print by design.
console.log('building');
