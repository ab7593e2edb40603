from common import *
random.seed(51)
c = fresh_db('research_grants')
# NOTE: deliberately no declared foreign keys; links only by (differently named) matching columns
c.executescript('''
CREATE TABLE researchers (researcher_id INTEGER PRIMARY KEY, first_nm TEXT, last_nm TEXT, title_cd TEXT, dept_cd TEXT, hire_dt TEXT, orcid TEXT, email_addr TEXT, h_index INTEGER);
CREATE TABLE departments (dept_cd TEXT PRIMARY KEY, dept_name TEXT, faculty_nm TEXT, bldg_code TEXT, chair_id INTEGER);
CREATE TABLE buildings (bldg_code TEXT PRIMARY KEY, bldg_name TEXT, campus TEXT, yr_built INTEGER, gross_sqm INTEGER);
CREATE TABLE FundingBodies (FunderID INTEGER PRIMARY KEY, FunderName TEXT, FunderType TEXT, CountryCd TEXT);
CREATE TABLE grants (grant_no TEXT PRIMARY KEY, grant_title TEXT, sponsor_id INTEGER, pi_id INTEGER, start_dt TEXT, end_dt TEXT, award_amt REAL, indirect_rate_pct REAL, status_cd TEXT);
CREATE TABLE grant_personnel (grant_no TEXT, res_id INTEGER, role_cd TEXT, effort_pct REAL);
CREATE TABLE publications (pub_id INTEGER PRIMARY KEY, pub_title TEXT, venue_nm TEXT, pub_yr INTEGER, doi TEXT, cites INTEGER, oa_flag INTEGER);
CREATE TABLE authorship (pub_id INTEGER, author_id INTEGER, author_pos INTEGER, corr_author_yn TEXT);
CREATE TABLE pub_grant_ack (pub_ref INTEGER, grant_ref TEXT);
CREATE TABLE students (stu_id INTEGER PRIMARY KEY, stu_name TEXT, degree_prog TEXT, enrol_yr INTEGER, advisor_res_id INTEGER, stipend_amt REAL, funded_by_grant TEXT);
CREATE TABLE equipment (asset_tag TEXT PRIMARY KEY, equip_desc TEXT, bldg_code TEXT, room_no TEXT, purch_cost REAL, purch_grant_no TEXT, acq_date TEXT);
CREATE TABLE equip_bookings (booking_id INTEGER PRIMARY KEY, asset_tag TEXT, booked_by INTEGER, booking_dt TEXT, hrs_used REAL);
CREATE TABLE expenditures (txn_id INTEGER PRIMARY KEY, grant_no TEXT, txn_date TEXT, exp_category TEXT, amt_usd REAL, vendor_nm TEXT);
''')
bld=[('SCI1','Hartley Science Building','North',1968,18200),('ENG2','Kovalenko Engineering Hall','North',2009,22400),
     ('MED3','Ridgeway Biomedical Research Tower','Medical',2016,31000),('HUM4','Ashcombe Hall','South',1921,9600)]
insert(c,'buildings',['bldg_code','bldg_name','campus','yr_built','gross_sqm'],bld)
depts=[('CHEM','Chemistry','Faculty of Science','SCI1',None),('PHYS','Physics & Astronomy','Faculty of Science','SCI1',None),
       ('MECH','Mechanical Engineering','Faculty of Engineering','ENG2',None),('CSCI','Computer Science','Faculty of Engineering','ENG2',None),
       ('BIOM','Biomedical Sciences','Faculty of Medicine','MED3',None),('EPID','Epidemiology & Public Health','Faculty of Medicine','MED3',None),
       ('HIST','History','Faculty of Arts','HUM4',None)]
fnames=['Alice','Bruno','Chen','Dana','Elif','Farid','Greta','Hiro','Ines','Jonas','Kavya','Leon','Marta','Nikolai','Oluwaseun','Paula','Quentin','Rania','Sven','Tamsin','Umar','Vera','Wen','Xavier','Yasmin','Zoltan','Beatriz','Callum','Deepa','Emeka','Fiona','Gustavo']
lnames=['Abara','Bergström','Castillo','Duarte','Eriksen','Fontaine','Gupta','Hoffmann','Ibarra','Jansen','Kaur','Lindholm','Moreau','Novak','Oyelaran','Petrov','Quinn','Rossi','Sato','Thornton','Ueda','Varga','Wang','Xu','Yilmaz','Zielinski','Almeida','Brennan','Chatterjee','Dike','Fraser','Gomes']
titles=['Prof','AssocProf','AsstProf','PostDoc','ResSci']
res=[]
for i in range(32):
    d=depts[i % 7][0]
    res.append((1000+i, fnames[i], lnames[i], titles[(i*3+i//7)%5], d, '%d-%02d-01' % (random.randint(1995,2022),random.choice([1,7,9])),
                '0000-000%d-%04d-%04d' % (random.randint(1,3),random.randint(0,9999),random.randint(0,9999)), (fnames[i][0]+lnames[i]).lower().replace('ö','o')+'@univ.edu', random.randint(2,58)))
insert(c,'researchers',['researcher_id','first_nm','last_nm','title_cd','dept_cd','hire_dt','orcid','email_addr','h_index'],res)
depts=[(d[0],d[1],d[2],d[3],[r[0] for r in res if r[4]==d[0] and r[3]=='Prof'][0] if [r for r in res if r[4]==d[0] and r[3]=='Prof'] else [r[0] for r in res if r[4]==d[0]][0]) for d in depts]
insert(c,'departments',['dept_cd','dept_name','faculty_nm','bldg_code','chair_id'],depts)
funders=[(1,'National Science Foundation','Government','US'),(2,'National Institutes of Health','Government','US'),(3,'Wellcome Trust','Foundation','GB'),
         (4,'European Research Council','Government','EU'),(5,'Gates Foundation','Foundation','US'),(6,'Siemens Healthineers','Industry','DE'),
         (7,'Department of Energy','Government','US'),(8,'Mellon Foundation','Foundation','US'),(9,'Rolls-Royce plc','Industry','GB')]
insert(c,'FundingBodies',['FunderID','FunderName','FunderType','CountryCd'],funders)
topics={'CHEM':['Catalytic conversion of CO2 to methanol','Self-healing polymer coatings','Perovskite stability under humidity'],
 'PHYS':['Quantum dot single-photon sources','Dark matter direct detection with xenon','Gravitational wave detector optics'],
 'MECH':['Additive manufacturing of turbine blades','Soft robotic grippers','Thermal management for battery packs'],
 'CSCI':['Privacy-preserving federated learning','Verified compilers for embedded systems','Low-resource machine translation'],
 'BIOM':['CRISPR screening in cardiomyocytes','Gut microbiome and insulin resistance','Nanoparticle delivery across the blood-brain barrier'],
 'EPID':['Malaria transmission in the Sahel','Long COVID cohort follow-up','Air pollution and childhood asthma'],
 'HIST':['Digitising medieval trade ledgers','Oral histories of post-war migration']}
fund_for={'CHEM':[1,7,4],'PHYS':[1,7,4],'MECH':[9,1,7],'CSCI':[1,4,6],'BIOM':[2,3,6],'EPID':[5,2,3],'HIST':[8,4]}
grants=[]; gp=[]; gi=0
for d,ts in topics.items():
    members=[r for r in res if r[4]==d]
    for t in ts:
        gi+=1
        pi=random.choice([m for m in members if m[3] in ('Prof','AssocProf','AsstProf','ResSci')] or members)
        sp=random.choice(fund_for[d]); sy=random.randint(2017,2023); dur=random.choice([2,3,3,4,5])
        amt=round(random.choice([1,2,3,5,8,12,20])*random.uniform(50000,120000),-2)
        st='CLOSED' if sy+dur<2024 else random.choice(['ACTIVE','ACTIVE','NO-COST EXT'])
        gno='%s-%d-%03d' % ({1:'NSF',2:'NIH',3:'WT',4:'ERC',5:'GF',6:'SIE',7:'DOE',8:'MEL',9:'RR'}[sp], sy, gi*7)
        grants.append((gno,t,sp,pi[0],'%d-%02d-01'%(sy,random.choice([1,4,7,9])),'%d-%02d-30'%(sy+dur,random.choice([3,6,9])),amt,random.choice([0,15,26,52.5,57,61]),st))
        gp.append((gno,pi[0],'PI',round(random.choice([10,15,20,25,30]),1)))
        others=random.sample([m for m in res if m[0]!=pi[0] and (m[4]==d or random.random()<.15)], random.randint(1,3))
        for o in others: gp.append((gno,o[0],random.choice(['Co-I','Co-I','Key Personnel','Consultant']),round(random.choice([2.5,5,10,15,20,50]),1)))
grants.append(('WT-2024-999','Pandemic preparedness modelling (pending review)',3,1005+0,'2024-10-01','2027-09-30',1450000.0,0,'PENDING'))
insert(c,'grants',['grant_no','grant_title','sponsor_id','pi_id','start_dt','end_dt','award_amt','indirect_rate_pct','status_cd'],grants)
insert(c,'grant_personnel',['grant_no','res_id','role_cd','effort_pct'],gp)
venues=['Nature','Science','Physical Review Letters','Journal of the American Chemical Society','The Lancet','PLOS ONE','IEEE Transactions on Robotics','NeurIPS','Cell','Past & Present','Journal of Fluid Mechanics','Epidemiology']
pubs=[]; auth=[]; ack=[]
grant_by_dept={}
for g in grants:
    pi=[r for r in res if r[0]==g[3]][0]; grant_by_dept.setdefault(pi[4],[]).append(g[0])
for i in range(1,46):
    d=random.choice(list(topics))
    members=[r for r in res if r[4]==d]
    yr=random.randint(2018,2024)
    pubs.append((i,'%s: %s' % (random.choice(topics[d]), random.choice(['a randomized study','new evidence','a scalable approach','mechanistic insights','a 10-year review','benchmark results'])),
                 random.choice(venues),yr,'10.%d/%s.%d.%05d' % (random.choice([1038,1126,1016,1371]),random.choice(['nat','sci','j','pone']),yr,random.randint(0,99999)),
                 int(abs(random.gauss(25,30))*(2025-yr)/3), random.choice([0,1,1])))
    au=random.sample(members,min(len(members),random.randint(1,3)))
    if random.random()<.3: au.append(random.choice(res))
    seen=set(); pos=1
    for a in au:
        if a[0] in seen: continue
        seen.add(a[0]); auth.append((i,a[0],pos,'Y' if pos==len(au) or (pos==1 and random.random()<.3) else 'N')); pos+=1
    for gno in random.sample(grant_by_dept[d], random.randint(0,min(2,len(grant_by_dept[d])))):
        ack.append((i,gno))
insert(c,'publications',['pub_id','pub_title','venue_nm','pub_yr','doi','cites','oa_flag'],pubs)
insert(c,'authorship',['pub_id','author_id','author_pos','corr_author_yn'],auth)
insert(c,'pub_grant_ack',['pub_ref','grant_ref'],ack)
sfirst=['Aiden','Bella','Chidi','Darya','Ewan','Freya','Gopal','Hana','Ivo','Jia','Kofi','Lena','Mateo','Noor','Oskar','Pia','Rafael','Saanvi','Theo','Ula','Viktor','Willa']
slast=['Adeyemi','Bauer','Costa','Dvorak','Evans','Fischer','Gill','Holm','Ito','Jovanovic','Khan','Larsen','Mendes','Nakamura','Olsen','Park','Reyes','Shah','Toth','Usman','Vogel','Wright']
studs=[]
for i in range(22):
    adv=random.choice([r for r in res if r[3] in ('Prof','AssocProf','AsstProf')])
    gs=[g for g in grants if g[3]==adv[0] and g[8]!='PENDING']
    prog=random.choice(['PhD','PhD','PhD','MSc','MPhil'])
    studs.append((i+1,sfirst[i]+' '+slast[i],prog,random.randint(2018,2024),adv[0],round(random.choice([0,24000,28000,31500,34000]),2) if prog=='PhD' else 0,
                  random.choice(gs)[0] if gs and random.random()<.7 else None))
insert(c,'students',['stu_id','stu_name','degree_prog','enrol_yr','advisor_res_id','stipend_amt','funded_by_grant'],studs)
eq=[('EQ-0001','Bruker 600 MHz NMR spectrometer','SCI1','B12',1250000.0,None,'2012-05-14'),
    ('EQ-0002','Zeiss LSM 980 confocal microscope','MED3','4.210',780000.0,None,'2019-11-02'),
    ('EQ-0003','Illumina NovaSeq 6000 sequencer','MED3','2.115',985000.0,None,'2020-02-20'),
    ('EQ-0004','Stratasys Fortus 450mc 3D printer','ENG2','G07',145000.0,None,'2018-08-09'),
    ('EQ-0005','NVIDIA DGX A100 GPU server','ENG2','Server Room 1',199000.0,None,'2021-03-30'),
    ('EQ-0006','Thermo Orbitrap Exploris mass spectrometer','SCI1','B14',690000.0,None,'2021-09-15'),
    ('EQ-0007','Instron 5985 universal testing machine','ENG2','G11',210000.0,None,'2016-01-11'),
    ('EQ-0008','Agilent 1290 HPLC system','SCI1','1.07',98000.0,None,'2017-06-06'),
    ('EQ-0009','BD FACSymphony flow cytometer','MED3','3.301',520000.0,None,'2022-04-19'),
    ('EQ-0010','Coherent Chameleon femtosecond laser','SCI1','B02',340000.0,None,'2015-10-27'),
    ('EQ-0011','Book scanner Zeutschel OS Q1','HUM4','Archive 2',42000.0,None,'2020-07-01'),
    ('EQ-0012','Environmental air sampling kit (x20)','MED3','5.012',36000.0,None,'2022-11-08'),
    ('EQ-0013','Wind tunnel balance 6-component','ENG2','Hangar',275000.0,None,'2014-03-03')]
eq=[list(e) for e in eq]
gn={g[0]:g for g in grants}
for e,dep in zip(eq,['CHEM','BIOM','BIOM','MECH','CSCI','CHEM','MECH','CHEM','BIOM','PHYS','HIST','EPID','MECH']):
    if random.random()<.7: e[5]=random.choice(grant_by_dept[dep])
insert(c,'equipment',['asset_tag','equip_desc','bldg_code','room_no','purch_cost','purch_grant_no','acq_date'],eq)
bk=[]
for i in range(1,71):
    e=random.choice(eq); dep={'SCI1':['CHEM','PHYS'],'MED3':['BIOM','EPID'],'ENG2':['MECH','CSCI'],'HUM4':['HIST']}[e[2]]
    who=random.choice([r for r in res if r[4] in dep] + [random.choice(res)])
    bk.append((i,e[0],who[0],'20%d-%02d-%02d' % (random.choice([22,23,24]),random.randint(1,12),random.randint(1,28)),random.choice([0.5,1,2,2,3,4,6,8,12])))
insert(c,'equip_bookings',['booking_id','asset_tag','booked_by','booking_dt','hrs_used'],bk)
ex=[]; tid=1
vend={'Travel':['Delta Air Lines','Lufthansa','Marriott','Booking.com'],'Personnel':['University Payroll'],'Supplies':['Sigma-Aldrich','Fisher Scientific','Thorlabs','VWR'],
      'Equipment':['Dell Technologies','Keysight','Bruker'],'Publication fees':['Springer Nature','Elsevier','PLOS'],'Participant incentives':['Tango Card']}
for g in grants:
    if g[8]=='PENDING': continue
    for k in range(random.randint(2,6)):
        cat=random.choice(list(vend)); y=int(g[4][:4])+random.randint(0,2)
        ex.append((tid,g[0],'%d-%02d-%02d'%(min(y,2024),random.randint(1,12),random.randint(1,28)),cat,
                   round({'Travel':random.uniform(400,4000),'Personnel':random.uniform(8000,60000),'Supplies':random.uniform(150,12000),'Equipment':random.uniform(3000,90000),
                          'Publication fees':random.uniform(1500,11000),'Participant incentives':random.uniform(500,5000)}[cat],2),random.choice(vend[cat]))); tid+=1
insert(c,'expenditures',['txn_id','grant_no','txn_date','exp_category','amt_usd','vendor_nm'],ex)
c.commit()
for (t,) in c.execute("select name from sqlite_master where type='table'"):
    print(t, c.execute('select count(*) from "%s"'%t).fetchone()[0])
