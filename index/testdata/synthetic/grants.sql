-- A research office: grants with a status code and amounts some of which
-- are zero, and the researchers who lead them.
CREATE TABLE researcher (researcher_id INTEGER PRIMARY KEY, full_name TEXT, dept TEXT, office TEXT, email TEXT,
  orcid TEXT, hired_on TEXT, rank_title TEXT, phone TEXT, lab_name TEXT);
CREATE TABLE grant_award (grant_no TEXT PRIMARY KEY, pi_id INTEGER REFERENCES researcher(researcher_id), title TEXT,
  status_cd TEXT, award_amt NUMERIC);
INSERT INTO researcher VALUES (1, 'Ada Quill', 'Physics', 'P1', 'ada@u.edu', '0000-1', '2015-09-01', 'Professor', '555-01', 'Quill Lab'),
  (2, 'Ben Marsh', 'History', 'H2', 'ben@u.edu', '0000-2', '2018-01-15', 'Reader', '555-02', 'Archive Room'),
  (3, 'Cleo Stone', 'Physics', 'P3', 'cleo@u.edu', '0000-3', '2020-03-02', 'Lecturer', '555-03', 'Cold Lab');
INSERT INTO grant_award VALUES
  ('G1', 1, 'Dark matter maps', 'ACTIVE', 120000), ('G2', 1, 'Neutrino timing', 'PENDING', 1450000),
  ('G3', 2, 'Guild ledgers', 'CLOSED', 0), ('G4', 3, 'Cold atoms', 'ACTIVE', 56000),
  ('G5', 2, 'Port records', 'ACTIVE', 18000), ('G6', 3, 'Lattice clocks', 'CLOSED', 91000),
  ('G7', 1, 'Muon decay', 'PENDING', 300000), ('G8', 2, 'Parish rolls', 'ACTIVE', 0);
