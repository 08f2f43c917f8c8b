import { Pool } from 'pg';

const pool = new Pool();

export async function byName(name: string) {
  return pool.query(`SELECT id FROM users WHERE name = '${name}'`); // want "built with a template literal"
}

export async function remove(id: string) {
  const q = "DELETE FROM users WHERE id = " + id;
  return pool.query(q); // want "concatenation \(line 10\)"
}

// Near misses.
export async function safe(name: string) {
  await pool.query('SELECT id FROM users WHERE name = $1', [name]);
  return pool.query(sql`SELECT id FROM users WHERE name = ${name}`);
}
