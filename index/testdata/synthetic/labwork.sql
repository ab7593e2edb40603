-- A clinical lab schema (4 tables) whose result columns are named with
-- mixed-case short forms and units (eGFR_mL_min, HbA1c_pct: split into
-- e gfr…, hb a 1 c…) that a question writes as one word ("eGFR", "A1c"),
-- a ward headed by a clinician (head_id) that a question asks about by
-- the head's role ("who heads"), and a film-like table of tests asked for
-- in other words ("which assays") than its name.
CREATE TABLE clinician (clinician_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, specialty TEXT, pager TEXT);
CREATE TABLE ward (ward_id INTEGER PRIMARY KEY, ward_label TEXT, floor INTEGER, beds INTEGER, head_id INTEGER REFERENCES clinician(clinician_id));
CREATE TABLE lab_test (test_id INTEGER PRIMARY KEY, test_name TEXT, length_min INTEGER, tube_colour TEXT, fasting_flag INTEGER);
CREATE TABLE lab_result (result_id INTEGER PRIMARY KEY, ward_id INTEGER REFERENCES ward(ward_id), test_id INTEGER REFERENCES lab_test(test_id),
  ordered_by INTEGER REFERENCES clinician(clinician_id), eGFR_mL_min REAL, HbA1c_pct REAL, Hgb_g_dL REAL, Na_mmol_L REAL, K_mmol_L REAL, sample_dt TEXT);
INSERT INTO clinician VALUES (1, 'Ada', 'Brook', 'nephrology', '401'), (2, 'Bo', 'Lind', 'endocrinology', '402'), (3, 'Cy', 'Moss', 'cardiology', '403');
INSERT INTO ward VALUES (1, 'Cedar', 2, 24, 1), (2, 'Willow', 3, 18, 2), (3, 'Maple', 4, 30, 3);
INSERT INTO lab_test VALUES (1, 'renal panel', 45, 'gold', 0), (2, 'glucose tolerance', 150, 'grey', 1), (3, 'full blood count', 20, 'lavender', 0);
INSERT INTO lab_result VALUES (1, 1, 1, 1, 54.0, 6.1, 12.9, 139, 4.1, '2024-01-03'), (2, 2, 2, 2, 91.0, 8.4, 13.8, 141, 3.9, '2024-02-11'),
  (3, 3, 3, 3, 72.0, 5.6, 11.2, 137, 4.4, '2024-03-20');
