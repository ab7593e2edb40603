-- A small art-gallery schema (4 tables, 21 columns) whose questions name
-- their columns only by implication or in other words: "youngest" for
-- age, "nation" for country, "sold" for quantity, "name" of a row kept
-- in a title, "expensive" for a price, a founding year stored as a REAL,
-- "for each gallery" asking for the gallery's name column, and a column
-- named with a stop word (other_details) the question names by its other word,
-- and a column named in a short form (flr_space for floor space).
CREATE TABLE gallery (gallery_id INTEGER PRIMARY KEY, gallery_name TEXT, city TEXT, founded REAL, flr_space INTEGER);
CREATE TABLE painter (painter_id INTEGER PRIMARY KEY, full_name TEXT, country TEXT, age INTEGER, style TEXT);
CREATE TABLE exhibition (exhibition_id INTEGER PRIMARY KEY, title TEXT, gallery_id INTEGER REFERENCES gallery(gallery_id),
  painter_id INTEGER REFERENCES painter(painter_id), opening_date TEXT, ticket_price REAL);
CREATE TABLE sale (sale_id INTEGER PRIMARY KEY, exhibition_id INTEGER REFERENCES exhibition(exhibition_id), quantity INTEGER, buyer TEXT, other_details TEXT);
INSERT INTO gallery VALUES (1, 'North Hall', 'Leeds', 1971.0, 800), (2, 'Quay Rooms', 'Hull', 1994.0, 450), (3, 'Old Mill', 'York', 1958.0, 300);
INSERT INTO painter VALUES (1, 'Ada Brook', 'Ireland', 34, 'abstract'), (2, 'Bo Lind', 'Sweden', 61, 'landscape'), (3, 'Cy Moss', 'Wales', 47, 'portrait');
INSERT INTO exhibition VALUES (1, 'Tides', 1, 1, '2023-04-01', 12.5), (2, 'Pines', 2, 2, '2023-09-15', 8.0), (3, 'Faces', 3, 3, '2024-02-10', 10.0);
INSERT INTO sale VALUES (1, 1, 3, 'M. Hart', 'framed'), (2, 2, 1, 'J. Cole', 'gift'), (3, 1, 2, 'P. Ruiz', '');
