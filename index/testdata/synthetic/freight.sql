-- A freight forwarder: shippers and consignees stored with ISO country
-- codes, never country names; questions name countries by their people.
CREATE TABLE shipper (shipper_id INTEGER PRIMARY KEY, shipper_name TEXT, city TEXT, country_code TEXT, credit_limit NUMERIC, onboarded TEXT);
CREATE TABLE port (port_id INTEGER PRIMARY KEY, port_name TEXT, unlocode TEXT, ctry_cd TEXT, berth_count INTEGER);
CREATE TABLE vessel (vessel_id INTEGER PRIMARY KEY, vessel_name TEXT, imo_no TEXT, flag_cd TEXT, teu_capacity INTEGER, built_yr INTEGER);
CREATE TABLE voyage (voyage_id INTEGER PRIMARY KEY, vessel_id INTEGER REFERENCES vessel(vessel_id), from_port INTEGER REFERENCES port(port_id), to_port INTEGER REFERENCES port(port_id), departed TEXT, arrived TEXT);
CREATE TABLE booking (booking_id INTEGER PRIMARY KEY, shipper_id INTEGER REFERENCES shipper(shipper_id), voyage_id INTEGER REFERENCES voyage(voyage_id), teu INTEGER, freight_usd NUMERIC, booked_on TEXT, hazmat INTEGER);
CREATE TABLE invoice (invoice_id INTEGER PRIMARY KEY, booking_id INTEGER REFERENCES booking(booking_id), amount NUMERIC, currency TEXT, due_on TEXT, paid_on TEXT);
INSERT INTO shipper VALUES (1, 'Maple Goods', 'Toronto', 'CA', 50000, '2020-01-01'), (2, 'Rio Grande Imports', 'Monterrey', 'MX', 20000, '2021-05-01'), (3, 'Hudson Traders', 'Newark', 'US', 90000, '2019-07-01');
INSERT INTO port VALUES (1, 'Vancouver', 'CAVAN', 'CA', 30), (2, 'Manzanillo', 'MXZLO', 'MX', 18), (3, 'Long Beach', 'USLGB', 'US', 40);
INSERT INTO vessel VALUES (1, 'Northern Star', '9300001', 'PA', 8000, 2010), (2, 'Pacific Dawn', '9300002', 'LR', 12000, 2016);
INSERT INTO voyage VALUES (1, 1, 1, 3, '2024-01-02', '2024-01-09'), (2, 2, 2, 3, '2024-02-01', '2024-02-05');
INSERT INTO booking VALUES (1, 1, 1, 10, 15000, '2023-12-20', 0), (2, 2, 2, 4, 6000, '2024-01-20', 1), (3, 3, 2, 7, 9100, '2024-01-25', 0);
INSERT INTO invoice VALUES (1, 1, 15000, 'USD', '2024-02-01', '2024-01-30'), (2, 2, 6000, 'USD', '2024-02-20', NULL), (3, 3, 9100, 'USD', '2024-02-25', '2024-02-25');
