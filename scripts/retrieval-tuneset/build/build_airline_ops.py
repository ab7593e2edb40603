from common import *
import datetime
random.seed(73)
c = fresh_db('airline_ops')
c.executescript('''
CREATE TABLE dim_date (date_key INTEGER PRIMARY KEY, full_date TEXT, cal_year INTEGER, cal_qtr INTEGER, month_num INTEGER, month_name TEXT, day_of_week TEXT, is_weekend INTEGER, is_holiday INTEGER, holiday_name TEXT);
CREATE TABLE dim_airport (airport_key INTEGER PRIMARY KEY, iata_code TEXT, airport_name TEXT, city_name TEXT, country_name TEXT, region TEXT, hub_flag INTEGER, utc_offset_hrs REAL);
CREATE TABLE dim_carrier (carrier_key INTEGER PRIMARY KEY, carrier_code TEXT, carrier_name TEXT, alliance TEXT, low_cost_flag INTEGER, hq_country TEXT);
CREATE TABLE dim_aircraft (aircraft_key INTEGER PRIMARY KEY, tail_number TEXT, aircraft_model TEXT, manufacturer TEXT, seat_capacity INTEGER, engine_type TEXT, year_delivered INTEGER, owner_carrier_key INTEGER REFERENCES dim_carrier(carrier_key));
CREATE TABLE dim_delay_reason (delay_reason_key INTEGER PRIMARY KEY, iata_delay_code TEXT, reason_desc TEXT, reason_group TEXT, controllable_flag INTEGER);
CREATE TABLE fact_flight_leg (
  flight_leg_id INTEGER PRIMARY KEY,
  date_key INTEGER REFERENCES dim_date(date_key),
  carrier_key INTEGER REFERENCES dim_carrier(carrier_key),
  aircraft_key INTEGER REFERENCES dim_aircraft(aircraft_key),
  orig_airport_key INTEGER REFERENCES dim_airport(airport_key),
  dest_airport_key INTEGER REFERENCES dim_airport(airport_key),
  delay_reason_key INTEGER REFERENCES dim_delay_reason(delay_reason_key),
  flight_no TEXT,
  sched_dep_hhmm TEXT,
  pax_boarded INTEGER,
  seats_offered INTEGER,
  dep_delay_min INTEGER,
  arr_delay_min INTEGER,
  cancelled_flag INTEGER,
  diverted_flag INTEGER,
  block_min INTEGER,
  distance_km INTEGER,
  fuel_burn_kg INTEGER,
  pax_revenue_usd REAL,
  cargo_kg INTEGER
);
CREATE TABLE fact_bag_handling (
  date_key INTEGER REFERENCES dim_date(date_key),
  airport_key INTEGER REFERENCES dim_airport(airport_key),
  carrier_key INTEGER REFERENCES dim_carrier(carrier_key),
  bags_checked INTEGER,
  bags_mishandled INTEGER,
  claims_filed INTEGER,
  claim_paid_usd REAL,
  PRIMARY KEY (date_key, airport_key, carrier_key)
);
''')
hol={'2024-01-01':"New Year's Day",'2024-01-15':'Martin Luther King Jr. Day','2024-02-19':"Presidents' Day",'2024-03-31':'Easter Sunday'}
dates=[]; d=datetime.date(2024,1,1)
while d<=datetime.date(2024,3,31):
    s=d.isoformat()
    dates.append((int(d.strftime('%Y%m%d')),s,d.year,(d.month-1)//3+1,d.month,d.strftime('%B'),d.strftime('%A'),int(d.weekday()>=5),int(s in hol),hol.get(s)))
    d+=datetime.timedelta(days=1)
insert(c,'dim_date',['date_key','full_date','cal_year','cal_qtr','month_num','month_name','day_of_week','is_weekend','is_holiday','holiday_name'],dates)
aps=[(1,'ATL','Hartsfield-Jackson Atlanta International','Atlanta','United States','North America',1,-5),
     (2,'ORD',"Chicago O'Hare International",'Chicago','United States','North America',1,-6),
     (3,'DEN','Denver International','Denver','United States','North America',1,-7),
     (4,'SEA','Seattle-Tacoma International','Seattle','United States','North America',0,-8),
     (5,'BOS','Boston Logan International','Boston','United States','North America',0,-5),
     (6,'YYZ','Toronto Pearson International','Toronto','Canada','North America',1,-5),
     (7,'MEX','Mexico City International','Mexico City','Mexico','Latin America',0,-6),
     (8,'LHR','London Heathrow','London','United Kingdom','Europe',1,0),
     (9,'CDG','Paris Charles de Gaulle','Paris','France','Europe',1,1),
     (10,'MCO','Orlando International','Orlando','United States','North America',0,-5)]
insert(c,'dim_airport',['airport_key','iata_code','airport_name','city_name','country_name','region','hub_flag','utc_offset_hrs'],aps)
car=[(1,'DL','Delta Air Lines','SkyTeam',0,'United States'),(2,'UA','United Airlines','Star Alliance',0,'United States'),
     (3,'AC','Air Canada','Star Alliance',0,'Canada'),(4,'WN','Southwest Airlines',None,1,'United States'),
     (5,'BA','British Airways','oneworld',0,'United Kingdom'),(6,'F9','Frontier Airlines',None,1,'United States')]
insert(c,'dim_carrier',['carrier_key','carrier_code','carrier_name','alliance','low_cost_flag','hq_country'],car)
types=[('A321neo','Airbus',196,'Turbofan'),('737-800','Boeing',172,'Turbofan'),('737 MAX 8','Boeing',175,'Turbofan'),('787-9','Boeing',290,'Turbofan'),
       ('A350-900','Airbus',306,'Turbofan'),('A220-300','Airbus',137,'Turbofan'),('E175','Embraer',76,'Turbofan'),('A320neo','Airbus',186,'Turbofan')]
fleet={1:[0,3,6,4],2:[2,3,6,1],3:[5,3,6],4:[1,2],5:[4,3,0],6:[7,0]}
acs=[]; k=1
for ck,tl in fleet.items():
    for t in tl:
        for n in range(random.choice([1,2])):
            m=types[t]
            acs.append((k,'%s%03d%s' % ({1:'N',2:'N',3:'C-F',4:'N',5:'G-X',6:'N'}[ck],random.randint(100,999),random.choice(['DL','UA','AC','WN','BA','FR'])[ck%2]),m[0],m[1],m[2],m[3],random.randint(2008,2023),ck)); k+=1
insert(c,'dim_aircraft',['aircraft_key','tail_number','aircraft_model','manufacturer','seat_capacity','engine_type','year_delivered','owner_carrier_key'],acs)
dr=[(1,'00','No delay','None',0),(2,'15','Passenger boarding / late passengers','Passenger & Baggage',1),(3,'18','Baggage processing','Passenger & Baggage',1),
    (4,'41','Aircraft defect','Technical',1),(5,'63','Late crew boarding','Crew',1),(6,'71','Departure station weather','Weather',0),
    (7,'81','ATC restriction en route','Air Traffic Control',0),(8,'93','Late-arriving aircraft','Reactionary',1),(9,'87','Airport facilities','Airport',0)]
insert(c,'dim_delay_reason',['delay_reason_key','iata_delay_code','reason_desc','reason_group','controllable_flag'],dr)
routes={1:[(1,2),(1,5),(1,10),(1,8),(1,9),(1,7),(1,4),(2,1),(8,1)],2:[(2,3),(2,4),(2,8),(3,2),(3,4),(2,5),(2,10)],3:[(6,2),(6,8),(6,10),(6,7),(6,9)],
        4:[(3,10),(2,10),(1,3),(5,10),(3,4)],5:[(8,5),(8,2),(8,6),(8,9),(5,8)],6:[(3,10),(3,7),(3,1),(10,5)]}
import math
coords={1:(33.64,-84.43),2:(41.98,-87.90),3:(39.86,-104.67),4:(47.45,-122.31),5:(42.36,-71.01),6:(43.68,-79.63),7:(19.44,-99.07),8:(51.47,-0.45),9:(49.01,2.55),10:(28.43,-81.31)}
def dist(a,b):
    (la1,lo1),(la2,lo2)=coords[a],coords[b]
    p=math.pi/180
    h=math.sin((la2-la1)*p/2)**2+math.cos(la1*p)*math.cos(la2*p)*math.sin((lo2-lo1)*p/2)**2
    return int(2*6371*math.asin(math.sqrt(h)))
rows=[]; fid=1
for (dk,full,*_rest) in dates:
    for ck,rl in routes.items():
        for (o,dd) in random.sample(rl, random.randint(1,3)):
            if random.random()<.45: continue
            km=dist(o,dd); long=km>3500
            cand=[a for a in acs if a[7]==ck and ((a[4]>=250)==long or len([x for x in acs if x[7]==ck and (x[4]>=250)==long])==0)]
            ac=random.choice(cand)
            canc=int(random.random()<(.03 + (.08 if _rest[4] in ('January',) and o in (2,5,6) else 0)))
            seats=ac[4]
            if canc:
                pax=0; dep=None; arr=None; blk=None; fuel=None; rev=0.0; cargo=0; drk=random.choice([4,5,6,7]); div=0
            else:
                pax=int(seats*random.uniform(.62,1.0)); 
                delayed=random.random()<.35
                drk=random.choice([2,3,4,5,6,7,8,8,9]) if delayed else 1
                dep=random.randint(16,190) if delayed else random.randint(-6,14)
                arr=dep+random.randint(-15,20); div=int(random.random()<.01)
                blk=int(km/780*60+35+random.randint(-10,25)); fuel=int(km*(seats/150)*random.uniform(2.4,3.2))
                rev=round(pax*(km*random.uniform(.09,.16)+60)*(0.75 if car[ck-1][4] else 1.0),2); cargo=random.randint(0,9000 if long else 2500)
            rows.append((fid,dk,ck,ac[0],o,dd,drk,'%s%d' % (car[ck-1][1],100+ (o*37+dd*11)%800),'%02d%02d' % (random.randint(6,21),random.choice([0,5,15,30,45,50])),
                         pax,seats,dep,arr,canc,div,blk,km,fuel,rev,cargo)); fid+=1
insert(c,'fact_flight_leg',['flight_leg_id','date_key','carrier_key','aircraft_key','orig_airport_key','dest_airport_key','delay_reason_key','flight_no','sched_dep_hhmm',
  'pax_boarded','seats_offered','dep_delay_min','arr_delay_min','cancelled_flag','diverted_flag','block_min','distance_km','fuel_burn_kg','pax_revenue_usd','cargo_kg'],rows)
bags=[]
for (dk,*_r) in dates[::3]:
    for ck,rl in routes.items():
        for ap in sorted(set(o for o,_ in rl)):
            if random.random()<.5: continue
            chk=random.randint(150,2200); mh=int(chk*random.uniform(.001,.02)); cl=int(mh*random.uniform(.2,.7))
            bags.append((dk,ap,ck,chk,mh,cl,round(cl*random.uniform(80,450),2)))
insert(c,'fact_bag_handling',['date_key','airport_key','carrier_key','bags_checked','bags_mishandled','claims_filed','claim_paid_usd'],bags)
c.commit()
for (t,) in c.execute("select name from sqlite_master where type='table'"):
    print(t, c.execute('select count(*) from "%s"'%t).fetchone()[0])
