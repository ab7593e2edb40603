import sqlite3, os, random
# the database root is the first argument (make.sh passes it)
import sys
BASE = sys.argv[1] if len(sys.argv) > 1 else 'database'
def fresh_db(db_id):
    d = os.path.join(BASE, db_id)
    os.makedirs(d, exist_ok=True)
    p = os.path.join(d, db_id + '.sqlite')
    if os.path.exists(p):
        os.remove(p)
    c = sqlite3.connect(p)
    c.execute('PRAGMA foreign_keys=OFF')
    return c
def insert(c, table, cols, rows):
    q = 'INSERT INTO "%s" (%s) VALUES (%s)' % (table, ','.join('"%s"' % x for x in cols), ','.join('?' * len(cols)))
    c.executemany(q, rows)
