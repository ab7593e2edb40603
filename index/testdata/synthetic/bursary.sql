-- A school bursary: four base tables with keys, and more views than
-- tables, each repeating base columns under report names, as databases
-- grown over years of reporting have.
CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, role TEXT);
CREATE TABLE pupil (pupil_id INTEGER PRIMARY KEY, given_name TEXT, family_name TEXT, grade_lvl INTEGER,
  tutor_id INTEGER REFERENCES staff(staff_id));
CREATE TABLE fee_payment (pay_id INTEGER PRIMARY KEY, pupil_id INTEGER REFERENCES pupil(pupil_id),
  paid_dt TEXT, amt_usd NUMERIC, method TEXT);
CREATE TABLE term_stats (term_id INTEGER PRIMARY KEY, acad_yr TEXT, enr_total INTEGER, frpm_cnt INTEGER,
  susp_cnt INTEGER, attendance_pct REAL);
INSERT INTO staff VALUES (1, 'Ada', 'Quill', 'tutor'), (2, 'Ben', 'Marsh', 'bursar'), (3, 'Cleo', 'Stone', 'tutor');
INSERT INTO pupil VALUES (1, 'Dev', 'Patel', 7, 1), (2, 'Eli', 'Grant', 8, 1), (3, 'Fay', 'Ho', 7, 3);
INSERT INTO fee_payment VALUES (1, 1, '2024-09-01', 120.50, 'card'), (2, 2, '2024-09-03', 80.00, 'cash'),
  (3, 1, '2025-01-10', 60.25, 'card');
INSERT INTO term_stats VALUES (1, '2023-24', 410, 158, 4, 94.1), (2, '2024-25', 422, 152, 2, 95.3);
CREATE VIEW pupil_roster AS SELECT p.pupil_id, p.given_name, p.family_name, p.grade_lvl, s.first_name AS tutor_first, s.last_name AS tutor_last
  FROM pupil p JOIN staff s ON s.staff_id = p.tutor_id;
CREATE VIEW fees_by_pupil AS SELECT p.given_name, p.family_name, SUM(f.amt_usd) AS fees_paid FROM pupil p JOIN fee_payment f ON f.pupil_id = p.pupil_id GROUP BY p.pupil_id;
CREATE VIEW fees_by_method AS SELECT method, SUM(amt_usd) AS fees_paid, COUNT(*) AS payments FROM fee_payment GROUP BY method;
CREATE VIEW staff_list AS SELECT staff_id, first_name, last_name, role FROM staff;
CREATE VIEW term_overview AS SELECT acad_yr, enr_total, attendance_pct FROM term_stats;
CREATE VIEW pupils_by_grade AS SELECT grade_lvl, COUNT(*) AS pupils FROM pupil GROUP BY grade_lvl;
CREATE VIEW tutor_load AS SELECT s.first_name, s.last_name, COUNT(p.pupil_id) AS pupils FROM staff s LEFT JOIN pupil p ON p.tutor_id = s.staff_id GROUP BY s.staff_id;
CREATE VIEW pupil_fee_history AS SELECT p.given_name, p.family_name, f.paid_dt, f.amt_usd AS fee FROM pupil p JOIN fee_payment f ON f.pupil_id = p.pupil_id;
CREATE VIEW fee_receipts AS SELECT pay_id AS receipt_no, paid_dt, amt_usd AS fee_amount, method AS payment_method FROM fee_payment;
CREATE VIEW pupil_payment_methods AS SELECT p.given_name, f.method AS payment_method, COUNT(*) AS payments FROM pupil p JOIN fee_payment f ON f.pupil_id = p.pupil_id GROUP BY 1, 2;
CREATE VIEW fees_paid_per_pupil_by_method AS SELECT f.pupil_id, f.method AS payment_method, SUM(f.amt_usd) AS fees_paid FROM fee_payment f GROUP BY 1, 2;
CREATE VIEW unpaid_pupils AS SELECT p.given_name, p.family_name FROM pupil p WHERE NOT EXISTS (SELECT 1 FROM fee_payment f WHERE f.pupil_id = p.pupil_id);
