def by_name(cursor, name):
    cursor.execute(f"SELECT id FROM users WHERE name = '{name}'")  # want "built with an f-string"
    return cursor.fetchall()


def by_email(cursor, email):
    query = "SELECT id FROM users WHERE email = '%s'" % email
    cursor.execute(query)  # want "% formatting \(line 7\)"


def delete(cursor, uid):
    cursor.execute("DELETE FROM users WHERE id = " + uid)  # want "concatenation"


def update(cursor, name, uid):
    cursor.execute(  # want "str.format"
        "UPDATE users SET name = '{}' WHERE id = {}".format(name, uid)
    )


# Near misses.
def safe(cursor, name):
    cursor.execute("SELECT id FROM users WHERE name = %s", (name,))
    cursor.execute("SELECT id FROM users WHERE name = %(name)s", {"name": name})
    cursor.execute(f"SELECT count(*) FROM users")
