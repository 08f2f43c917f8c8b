exports.up = function (knex) {
  return knex.schema.table('users', (t) => t.string('plan'));
};

exports.down = function (knex) {}; // want "its down does nothing"
