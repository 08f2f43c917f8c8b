const serialize = require('node-serialize');
const { unserialize } = require('node-serialize');

function load(req) {
  const profile = serialize.unserialize(req.cookies.profile); // want "Untrusted data deserialized"
  const prefs = unserialize(Buffer.from(req.body.prefs, 'base64').toString()); // want "unserialize"
  return [profile, prefs];
}

// Near misses: none of these is reported.
function fine(req, other) {
  const fixed = serialize.unserialize('{"a":1}');
  const parsed = JSON.parse(req.body);
  other.unserialize(req.body);
  return [fixed, parsed, serialize.serialize(req.body)];
}

module.exports = { load, fine };
