-- Farms and their harvests, with declared keys: names spelled in another
-- inflection than questions use ("year_of_establishment" for "established")
-- and several-word names a question uses only in part.
CREATE TABLE farm (farm_id INTEGER PRIMARY KEY, farm_name TEXT, region TEXT, year_of_establishment INTEGER, total_hectares REAL);
CREATE TABLE crop (crop_id INTEGER PRIMARY KEY, crop_name TEXT, growing_season_length INTEGER);
CREATE TABLE harvest (harvest_id INTEGER PRIMARY KEY, farm_id INTEGER REFERENCES farm(farm_id), crop_id INTEGER REFERENCES crop(crop_id),
  harvest_date TEXT, tonnes_harvested REAL, quality_grade TEXT);
CREATE TABLE worker (worker_id INTEGER PRIMARY KEY, farm_id INTEGER REFERENCES farm(farm_id), full_name TEXT, hourly_wage REAL);
INSERT INTO farm VALUES (1, 'Hill Top', 'North', 1952, 40.5), (2, 'Brookside', 'South', 1988, 12.0), (3, 'Low Fields', 'North', 2004, 75.25);
INSERT INTO crop VALUES (1, 'Apple', 150), (2, 'Pear', 140), (3, 'Plum', 120);
INSERT INTO harvest VALUES (1, 1, 1, '2024-09-10', 30.5, 'A'), (2, 2, 2, '2024-09-20', 12.0, 'B'), (3, 3, 1, '2024-10-01', 44.0, 'A');
INSERT INTO worker VALUES (1, 1, 'Ann Field', 12.5), (2, 3, 'Tom Reed', 13.0);
