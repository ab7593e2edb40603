-- A kennel club with declared keys whose columns are named in short forms:
-- an initial and a word (Fname, LName), compounds of "name" (forename,
-- surname), and a link table (Visits) between dogs and vets.
CREATE TABLE Owners (OwnerID INTEGER PRIMARY KEY, Fname TEXT, LName TEXT, Sex TEXT, Age INTEGER, Phone TEXT, Street TEXT, Town TEXT, Postcode TEXT,
  Email TEXT, Joined TEXT, Referrer TEXT, Notes TEXT, Membership TEXT);
CREATE TABLE Dogs (DogID INTEGER PRIMARY KEY, OwnerID INTEGER REFERENCES Owners(OwnerID), DogName TEXT, Breed TEXT, Weight REAL, Colour TEXT);
CREATE TABLE Vets (VetID INTEGER PRIMARY KEY, forename TEXT, surname TEXT, clinic TEXT, licence TEXT, speciality TEXT, phone TEXT, qualified TEXT, rota TEXT);
CREATE TABLE Visits (VisitID INTEGER PRIMARY KEY, DogID INTEGER REFERENCES Dogs(DogID), VetID INTEGER REFERENCES Vets(VetID), VisitDate TEXT, Fee REAL, Reason TEXT);
CREATE TABLE Kennels (KennelID INTEGER PRIMARY KEY, KennelName TEXT, Town TEXT, Capacity INTEGER);
CREATE TABLE Stays (StayID INTEGER PRIMARY KEY, DogID INTEGER REFERENCES Dogs(DogID), KennelID INTEGER REFERENCES Kennels(KennelID), Nights INTEGER, Cost REAL);
CREATE TABLE Supplies (SupplyID INTEGER PRIMARY KEY, Item TEXT, Qty INTEGER, Price REAL, Vendor TEXT);
INSERT INTO Owners VALUES (1, 'Nora', 'Quill', 'F', 44, '555-2000', '4 Elm Rd', 'Ashford', 'AS1', 'nq@example.org', '2019-01-01', 'web', '', 'gold'),
  (2, 'Otto', 'Brandt', 'M', 31, '555-2001', '9 Oak Rd', 'Ashford', 'AS2', 'ob@example.org', '2020-02-02', 'friend', '', 'silver');
INSERT INTO Dogs VALUES (1, 1, 'Rex', 'Boxer', 31.5, 'brown'), (2, 2, 'Pip', 'Whippet', 12.0, 'grey');
INSERT INTO Vets VALUES (1, 'Ines', 'Marlow', 'Northgate', 'V-1', 'surgery', '555-3000', '2010', 'mon'), (2, 'Tom', 'Akers', 'Southgate', 'V-2', 'dental', '555-3001', '2015', 'tue');
INSERT INTO Visits VALUES (1, 1, 1, '2024-03-01', 60, 'vaccination'), (2, 2, 2, '2024-05-09', 45, 'check-up');
INSERT INTO Kennels VALUES (1, 'Hilltop', 'Ashford', 20);
INSERT INTO Stays VALUES (1, 1, 1, 3, 90);
INSERT INTO Supplies VALUES (1, 'Kibble', 40, 2.5, 'PetCo');
