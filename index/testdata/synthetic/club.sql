-- A club's events with declared keys: people reach events only through the
-- attendance link table, venues and departments through declared foreign keys.
CREATE TABLE department (department_id INTEGER PRIMARY KEY, title TEXT, floor INTEGER, phone TEXT);
CREATE TABLE person (person_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, email TEXT, phone TEXT, birth_date TEXT,
  department_id INTEGER REFERENCES department(department_id));
CREATE TABLE venue (venue_id INTEGER PRIMARY KEY, venue_name TEXT, street TEXT, city TEXT, capacity INTEGER, rent REAL);
CREATE TABLE event (event_id INTEGER PRIMARY KEY, title TEXT, event_date TEXT, budget REAL, status TEXT,
  venue_id INTEGER REFERENCES venue(venue_id));
CREATE TABLE attendance (event_id INTEGER REFERENCES event(event_id), person_id INTEGER REFERENCES person(person_id), PRIMARY KEY (event_id, person_id));
CREATE TABLE sponsor (sponsor_id INTEGER PRIMARY KEY, company TEXT, industry TEXT, website TEXT, contact_email TEXT);
CREATE TABLE sponsorship (sponsorship_id INTEGER PRIMARY KEY, event_id INTEGER REFERENCES event(event_id),
  sponsor_id INTEGER REFERENCES sponsor(sponsor_id), amount REAL, signed_on TEXT);
CREATE TABLE expense (expense_id INTEGER PRIMARY KEY, event_id INTEGER REFERENCES event(event_id), category TEXT, cost REAL, paid INTEGER, note TEXT);
CREATE TABLE supplier (supplier_id INTEGER PRIMARY KEY, company TEXT, country TEXT, rating INTEGER);
CREATE TABLE equipment (equipment_id INTEGER PRIMARY KEY, label TEXT, weight REAL, supplier_id INTEGER REFERENCES supplier(supplier_id));
CREATE TABLE booking (booking_id INTEGER PRIMARY KEY, equipment_id INTEGER REFERENCES equipment(equipment_id),
  event_id INTEGER REFERENCES event(event_id), quantity INTEGER, returned INTEGER);
INSERT INTO department VALUES (1, 'Outreach', 2, '555-0101'), (2, 'Finance', 3, '555-0102');
INSERT INTO person VALUES (1, 'Ada', 'Byron', 'ada@example.org', '555-1000', '1990-12-10', 1), (2, 'Alan', 'Mathison', 'alan@example.org', '555-1001', '1992-06-23', 2);
INSERT INTO venue VALUES (1, 'Harbour Hall', '1 Quay St', 'Bristol', 300, 900.0), (2, 'Old Mill', '5 Mill Ln', 'Leeds', 120, 400.0);
INSERT INTO event VALUES (1, 'Spring Gala', '2024-04-12', 5000, 'Open', 1), (2, 'Winter Fair', '2024-12-01', 3000, 'Closed', 2);
INSERT INTO attendance VALUES (1, 1), (1, 2), (2, 1);
INSERT INTO sponsor VALUES (1, 'Acme Ltd', 'Retail', 'acme.example', 'hi@acme.example');
INSERT INTO sponsorship VALUES (1, 1, 1, 1500, '2024-01-10');
INSERT INTO expense VALUES (1, 1, 'Catering', 800, 1, 'canapes'), (2, 2, 'Lighting', 300, 0, 'hire');
INSERT INTO supplier VALUES (1, 'Rig Co', 'UK', 4);
INSERT INTO equipment VALUES (1, 'Stage lights', 40.5, 1);
INSERT INTO booking VALUES (1, 1, 1, 4, 1);
