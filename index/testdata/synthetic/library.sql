-- A lending library that declares no keys at all: loans and authorship are
-- link tables whose columns are the other tables' key names, some without
-- a key word ("isbn", "patron").
CREATE TABLE book (isbn TEXT, title TEXT, published INTEGER, pages INTEGER, publisher TEXT);
CREATE TABLE writer (writer_id INTEGER, full_name TEXT, nationality TEXT, born INTEGER);
CREATE TABLE authorship (isbn TEXT, writer_id INTEGER, role TEXT);
CREATE TABLE patron (card_number INTEGER, given_name TEXT, family_name TEXT, address TEXT, joined TEXT);
CREATE TABLE loan (loan_id INTEGER, isbn TEXT, card_number INTEGER, borrowed TEXT, due TEXT, returned TEXT);
CREATE TABLE branch (branch_id INTEGER, branch_name TEXT, town TEXT, opening_hours TEXT);
CREATE TABLE shelf (shelf_id INTEGER, branch_id INTEGER, section TEXT, capacity INTEGER);
CREATE TABLE copy (copy_id INTEGER, isbn TEXT, shelf_id INTEGER, condition TEXT, acquired TEXT);
CREATE TABLE fine (fine_id INTEGER, loan_id INTEGER, fee REAL, paid INTEGER);
CREATE TABLE staff (staff_id INTEGER, branch_id INTEGER, surname TEXT, position TEXT, salary REAL);
INSERT INTO book VALUES ('978-0', 'Middlemarch', 1871, 880, 'Blackwood'), ('978-1', 'Persuasion', 1817, 249, 'Murray');
INSERT INTO writer VALUES (1, 'George Eliot', 'English', 1819), (2, 'Jane Austen', 'English', 1775);
INSERT INTO authorship VALUES ('978-0', 1, 'author'), ('978-1', 2, 'author');
INSERT INTO patron VALUES (100, 'Mary', 'Shelley', '2 Rue', '2020-01-01'), (101, 'Percy', 'Bysshe', '3 Rue', '2021-05-05');
INSERT INTO loan VALUES (1, '978-0', 100, '2024-01-02', '2024-01-30', NULL), (2, '978-1', 101, '2024-02-02', '2024-02-28', '2024-02-20');
INSERT INTO branch VALUES (1, 'Central', 'Bath', '9-5');
INSERT INTO shelf VALUES (1, 1, 'Fiction', 200);
INSERT INTO copy VALUES (1, '978-0', 1, 'good', '2019-03-03');
INSERT INTO fine VALUES (1, 1, 2.5, 0);
INSERT INTO staff VALUES (1, 1, 'Woolf', 'Librarian', 30000);
