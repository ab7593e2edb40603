-- A sales office: staff who report to one another, their sales with the
-- tax charged, and the carriers that ship them. Questions use the
-- words people say (boss, salesperson, VAT, airline), not the schema's.
CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, full_name TEXT, reports_to INTEGER REFERENCES staff(staff_id), hired_on TEXT, office TEXT);
CREATE TABLE sales (sale_id INTEGER PRIMARY KEY, staff_id INTEGER REFERENCES staff(staff_id), net_amount NUMERIC, tax_amount NUMERIC, sold_on TEXT);
CREATE TABLE carriers (carrier_id INTEGER PRIMARY KEY, carrier_name TEXT, mode TEXT);
CREATE TABLE shipments (shipment_id INTEGER PRIMARY KEY, sale_id INTEGER REFERENCES sales(sale_id), carrier_id INTEGER REFERENCES carriers(carrier_id), shipped_on TEXT, weight_kg NUMERIC);
INSERT INTO staff VALUES (1, 'Ada Park', NULL, '2018-01-01', 'Leeds'), (2, 'Ben Cole', 1, '2020-03-01', 'Leeds'), (3, 'Cy Diaz', 1, '2021-07-01', 'York');
INSERT INTO sales VALUES (1, 2, 100, 20, '2024-02-01'), (2, 3, 250, 50, '2024-03-05');
INSERT INTO carriers VALUES (1, 'SkyFreight Air', 'air'), (2, 'RoadRunner', 'road');
INSERT INTO shipments VALUES (1, 1, 1, '2024-02-02', 12.5), (2, 2, 2, '2024-03-06', 40);
