from common import *
random.seed(37)
c = fresh_db('vehicle_inspection')
c.executescript('''
CREATE TABLE "Inspection Stations" (
  "Station ID" INTEGER PRIMARY KEY,
  "Station Name" TEXT,
  "Town" TEXT,
  "Licence No" TEXT,
  "Operator Type" TEXT,
  "Lanes" INTEGER,
  "Heavy Vehicle Capable" TEXT
);
CREATE TABLE "Inspectors" (
  "Inspector ID" INTEGER PRIMARY KEY,
  "Full Name" TEXT,
  "Cert Level" TEXT,
  "Station ID" INTEGER REFERENCES "Inspection Stations"("Station ID"),
  "Hire Date" TEXT,
  "Badge No" TEXT
);
CREATE TABLE "Vehicles" (
  "VIN" TEXT PRIMARY KEY,
  "Reg Plate" TEXT,
  "Make" TEXT,
  "Model" TEXT,
  "Model Year" INTEGER,
  "Fuel Type" TEXT,
  "Body Style" TEXT,
  "Engine cc" INTEGER,
  "Colour" TEXT,
  "Owner Postcode" TEXT,
  "Reg Class" TEXT,
  "First Reg Date" TEXT
);
''')
stations=[(1,'Northgate Auto Test Centre','Leeds','VTS-2211','Independent garage',2,'N'),
 (2,'City Council Fleet Depot','Leeds','VTS-1045','Council',3,'Y'),
 (3,'Kwik Check Bradford','Bradford','VTS-3390','Franchise',2,'N'),
 (4,'Harrogate Motor Services','Harrogate','VTS-4120','Independent garage',1,'N'),
 (5,'Wakefield HGV Testing','Wakefield','VTS-5007','Franchise',4,'Y'),
 (6,'York Ring Road MOT','York','VTS-6182','Independent garage',2,'N')]
insert(c,'Inspection Stations',['Station ID','Station Name','Town','Licence No','Operator Type','Lanes','Heavy Vehicle Capable'],stations)
insp=[(1,'Gareth Hughes','Class 4 & 7',1,'2012-03-19','NT1187'),(2,'Priya Sandhu','Class 4',1,'2019-08-05','NT2290'),
 (3,'Tom Ackroyd','Class 4 & 7',2,'2008-11-02','NT0655'),(4,'Shaun Whitley','HGV',2,'2015-06-22','NT1540'),
 (5,'Amir Hussain','Class 4',3,'2017-01-09','NT1903'),(6,'Karen Booth','Class 4',4,'2010-04-14','NT0988'),
 (7,'Lewis Grant','HGV',5,'2021-02-01','NT2711'),(8,'Deborah Marsh','Class 4 & 7',5,'2006-09-30','NT0431'),
 (9,'Ollie Fenwick','Class 4',6,'2022-05-16','NT2954'),(10,'Sandra Pike','Class 4 & 7',6,'2014-07-07','NT1412')]
insert(c,'Inspectors',['Inspector ID','Full Name','Cert Level','Station ID','Hire Date','Badge No'],insp)
models=[('Ford','Fiesta','Hatchback','Petrol',1242),('Ford','Transit Custom','Van','Diesel',1995),('Vauxhall','Corsa','Hatchback','Petrol',1398),
 ('Volkswagen','Golf','Hatchback','Diesel',1968),('Toyota','Prius','Hatchback','Hybrid',1798),('Nissan','Leaf','Hatchback','Electric',0),
 ('BMW','3 Series','Saloon','Diesel',1995),('Kia','Sportage','SUV','Petrol',1591),('Tesla','Model 3','Saloon','Electric',0),
 ('Mercedes-Benz','Sprinter','Van','Diesel',2143),('Skoda','Octavia','Estate','Diesel',1968),('Honda','Jazz','Hatchback','Petrol',1339),
 ('Land Rover','Defender','SUV','Diesel',2996),('Toyota','Yaris','Hatchback','Hybrid',1490),('DAF','LF 180','Rigid HGV','Diesel',4500)]
colours=['Silver','Black','White','Blue','Red','Grey','Green']
vehs=[]
for i in range(50):
    mk,mo,body,fuel,cc = random.choice(models) if i>=len(models) else models[i]
    yr=random.randint(2005,2020)
    vin=''.join(random.choice('ABCDEFGHJKLMNPRSTUVWXYZ0123456789') for _ in range(17))
    plate='%s%s%02d %s' % (random.choice('YBLMNSV'),random.choice('ABDEFGKLM'),(yr%100 if random.random()<.5 else yr%100+50)%100, ''.join(random.choice('ABCDEFGHJKLMNPRSTUVWXYZ') for _ in range(3)))
    vehs.append((vin,plate,mk,mo,yr,fuel,body,cc,random.choice(colours),random.choice(['LS6 2QT','LS11 5AB','BD7 1DP','HG1 4RS','WF1 3JD','YO24 1AA','LS17 8HN']),
                 'HGV' if body=='Rigid HGV' else ('Class 7' if body=='Van' and mo=='Sprinter' else 'Class 4'),'%d-%02d-%02d' % (yr,random.randint(1,12),random.randint(1,28))))
insert(c,'Vehicles',['VIN','Reg Plate','Make','Model','Model Year','Fuel Type','Body Style','Engine cc','Colour','Owner Postcode','Reg Class','First Reg Date'],vehs)

R=lambda a,b,n=1: round(random.uniform(a,b),n)
spec=[('Inspection No','INTEGER PRIMARY KEY'),('VIN','TEXT REFERENCES "Vehicles"("VIN")'),('Station ID','INTEGER REFERENCES "Inspection Stations"("Station ID")'),
 ('Inspector ID','INTEGER REFERENCES "Inspectors"("Inspector ID")'),('Insp Date','TEXT'),('Test Type','TEXT'),('Odometer km','INTEGER'),('Overall Result','TEXT'),
 ('Fee Charged GBP','REAL'),('Duration min','INTEGER'),
 ('Brake Eff Service %','REAL'),('Brake Eff Park %','REAL'),('Brake Imbal Front %','REAL'),('Brake Imbal Rear %','REAL'),
 ('Pad FL mm','REAL'),('Pad FR mm','REAL'),('Pad RL mm','REAL'),('Pad RR mm','REAL'),('Brake Disc Scored','TEXT'),('Brake Fluid BP C','INTEGER'),('Brake Result','TEXT'),
 ('Tread FL mm','REAL'),('Tread FR mm','REAL'),('Tread RL mm','REAL'),('Tread RR mm','REAL'),('Tread Spare mm','REAL'),
 ('Tyre kPa FL','INTEGER'),('Tyre kPa FR','INTEGER'),('Tyre kPa RL','INTEGER'),('Tyre kPa RR','INTEGER'),('Tyre Sidewall Damage','TEXT'),('Tyre Result','TEXT'),
 ('CO % vol','REAL'),('HC ppm','INTEGER'),('NOx ppm','INTEGER'),('CO2 % vol','REAL'),('Lambda','REAL'),('Smoke Opacity m-1','REAL'),('Idle RPM','INTEGER'),('Fast Idle RPM','INTEGER'),('DPF Present','TEXT'),('Emissions Result','TEXT'),
 ('Headlamp Aim Vert %','REAL'),('Headlamp Aim Horiz %','REAL'),('Headlamp Lux L','INTEGER'),('Headlamp Lux R','INTEGER'),('Indicators OK','TEXT'),('Stop Lamps OK','TEXT'),('Rear Fog OK','TEXT'),('Plate Lamp OK','TEXT'),('Lights Result','TEXT'),
 ('Steering Free Play mm','REAL'),('Shock Eff FL %','INTEGER'),('Shock Eff FR %','INTEGER'),('Shock Eff RL %','INTEGER'),('Shock Eff RR %','INTEGER'),('Toe mm','REAL'),('Ball Joint Wear','TEXT'),('Susp Result','TEXT'),
 ('Corrosion Score','INTEGER'),('Windscreen Chip mm','REAL'),('Wipers OK','TEXT'),('Horn dB','INTEGER'),('Exhaust Noise dB','INTEGER'),('Seatbelts OK','TEXT'),('SRS Light On','TEXT'),
 ('OBD MIL On','TEXT'),('OBD DTCs','TEXT'),('Mirrors OK','TEXT'),('Speedo Error %','REAL'),('Fuel Leak','TEXT'),('Oil Leak Grade','INTEGER'),('Battery V','REAL'),('HV Isolation MOhm','REAL'),
 ('Advisory Count','INTEGER'),('Defect Count','INTEGER'),('Inspector Notes','TEXT'),('Retest Due','TEXT')]
cols=[s[0] for s in spec]
c.execute('CREATE TABLE "Inspection Results" (\n  ' + ',\n  '.join('"%s" %s' % s for s in spec) + '\n)')
rows=[]; no=50001
st_of={i[0]:i[3] for i in insp}
yn=lambda p: 'N' if random.random()<p else 'Y'
for v in vehs:
    vin,_,mk,mo,yr,fuel,body,cc=v[:8]
    odo=random.randint(8000,30000)*(2023-yr)//2+5000
    for k in range(random.choice([1,1,2,2,3])):
        r={}
        ii = random.choice([x for x in insp if (x[2]=='HGV')==(body=='Rigid HGV') or x[2]=='Class 4 & 7'])
        r['Inspection No']=no; no+=1; r['VIN']=vin; r['Inspector ID']=ii[0]; r['Station ID']=ii[3]
        r['Insp Date']='20%d-%02d-%02d' % (random.choice([22,23,23,24]),random.randint(1,12),random.randint(1,28))
        r['Test Type']= 'Retest' if k>0 and random.random()<.5 else random.choice(['Annual','Annual','Annual','Pre-sale'])
        odo += random.randint(3000,15000); r['Odometer km']=odo
        r['Fee Charged GBP']= 0.0 if r['Test Type']=='Retest' else (58.6 if body!='Rigid HGV' else 120.0)
        r['Duration min']=random.randint(35,75)
        r['Brake Eff Service %']=R(47,80); r['Brake Eff Park %']=R(14,36); r['Brake Imbal Front %']=R(0,32); r['Brake Imbal Rear %']=R(0,40)
        for w in ['FL','FR','RL','RR']: r['Pad %s mm'%w]=R(1.4,11)
        r['Brake Disc Scored']=random.choice(['N','N','N','Y']); r['Brake Fluid BP C']=random.randint(140,260)
        r['Brake Result']='FAIL' if r['Brake Eff Service %']<50 or r['Brake Imbal Front %']>30 or min(r['Pad %s mm'%w] for w in ['FL','FR','RL','RR'])<1.5 else 'PASS'
        for w in ['FL','FR','RL','RR']: r['Tread %s mm'%w]=R(1.5,8.0)
        r['Tread Spare mm']=R(1,8) if random.random()<.6 else None
        for w in ['FL','FR','RL','RR']: r['Tyre kPa %s'%w]=random.randint(190,270)
        r['Tyre Sidewall Damage']=random.choice(['N']*14+['Y'])
        r['Tyre Result']='FAIL' if min(r['Tread %s mm'%w] for w in ['FL','FR','RL','RR'])<1.6 or r['Tyre Sidewall Damage']=='Y' else 'PASS'
        if fuel=='Electric':
            for x in ['CO % vol','HC ppm','NOx ppm','CO2 % vol','Lambda','Smoke Opacity m-1','Idle RPM','Fast Idle RPM']: r[x]=None
            r['DPF Present']='N/A'; r['Emissions Result']='EXEMPT'; r['HV Isolation MOhm']=R(2,50)
        else:
            r['HV Isolation MOhm']=R(1,30) if fuel=='Hybrid' else None
            if fuel=='Diesel':
                r['CO % vol']=None; r['HC ppm']=None; r['Lambda']=None; r['CO2 % vol']=None; r['NOx ppm']=random.randint(80,900)
                r['Smoke Opacity m-1']=R(0.05,1.62,2); r['DPF Present']=random.choice(['Y','Y','N']) 
                r['Emissions Result']='FAIL' if r['Smoke Opacity m-1']>1.5 else 'PASS'
            else:
                r['CO % vol']=R(0,0.34,2); r['HC ppm']=random.randint(5,215); r['NOx ppm']=random.randint(10,300); r['CO2 % vol']=R(13,15.5,1); r['Lambda']=R(.96,1.04,3)
                r['Smoke Opacity m-1']=None; r['DPF Present']='N/A'
                r['Emissions Result']='FAIL' if r['CO % vol']>0.3 or r['HC ppm']>200 else 'PASS'
            r['Idle RPM']=random.randint(650,950); r['Fast Idle RPM']=random.randint(2500,3000)
        r['Headlamp Aim Vert %']=R(-2.1,0.5); r['Headlamp Aim Horiz %']=R(-1,1); r['Headlamp Lux L']=random.randint(8,60); r['Headlamp Lux R']=random.randint(8,60)
        r['Indicators OK']=yn(.03); r['Stop Lamps OK']=yn(.03); r['Rear Fog OK']=yn(.03); r['Plate Lamp OK']=yn(.12)
        r['Lights Result']='FAIL' if 'N' in (r['Indicators OK'],r['Stop Lamps OK'],r['Rear Fog OK']) or r['Headlamp Aim Vert %']<-2 else 'PASS'
        r['Steering Free Play mm']=R(0,14); 
        for w in ['FL','FR','RL','RR']: r['Shock Eff %s %%'%w]=random.randint(25,85)
        r['Toe mm']=R(-3,3); r['Ball Joint Wear']=random.choice(['None']*6+['Slight']*4+['Excessive'])
        r['Susp Result']='FAIL' if r['Ball Joint Wear']=='Excessive' or r['Steering Free Play mm']>13 else 'PASS'
        r['Corrosion Score']=random.randint(0,5) if yr<2012 else random.randint(0,2)
        r['Windscreen Chip mm']=random.choice([0]*8+[5,8,12,25,40]); r['Wipers OK']=yn(.07); r['Horn dB']=random.randint(88,112)
        r['Exhaust Noise dB']=random.randint(72,99) if fuel!='Electric' else None; r['Seatbelts OK']=yn(.02); r['SRS Light On']=random.choice(['N']*9+['Y'])
        r['OBD MIL On']=random.choice(['N']*7+['Y']); r['OBD DTCs']=random.choice(['P0420','P0171','P0300','P2002','U0100']) if r['OBD MIL On']=='Y' else None
        r['Mirrors OK']=yn(.05); r['Speedo Error %']=R(-2,6); r['Fuel Leak']=random.choice(['N']*15+['Y']) if fuel!='Electric' else 'N'
        r['Oil Leak Grade']=random.choice([0,0,0,1,1,2,3]) if fuel!='Electric' else 0; r['Battery V']=R(11.8,12.9,2)
        results=[r['Brake Result'],r['Tyre Result'],r['Emissions Result'],r['Lights Result'],r['Susp Result']]
        fails=sum(1 for x in results if x=='FAIL') + (r['Fuel Leak']=='Y') + (r['Windscreen Chip mm']>=40) + (r['Seatbelts OK']=='N')
        r['Defect Count']=fails; r['Advisory Count']=random.randint(0,4)
        r['Overall Result']='FAIL' if fails else ('PASS WITH ADVISORIES' if r['Advisory Count']>0 else 'PASS')
        r['Inspector Notes']=random.choice([None,None,'Advised nearside front tyre close to limit','Slight oil mist on sump','Corrosion to sill, not excessive','Customer declined wheel alignment','Parking brake near minimum'])
        r['Retest Due']= ('%s-%02d-%02d' % (r['Insp Date'][:4], min(12,int(r['Insp Date'][5:7])+(1 if int(r['Insp Date'][8:])>18 else 0)), (int(r['Insp Date'][8:])+10)%28+1)) if fails else None
        rows.append([r[x] for x in cols])
insert(c,'Inspection Results',cols,rows)
c.commit()
print(len(cols),'wide cols',len(rows),'rows')
