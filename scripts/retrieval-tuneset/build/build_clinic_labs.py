from common import *
random.seed(23)
c = fresh_db('clinic_labs')
c.executescript('''
CREATE TABLE Site (
  SiteID INTEGER PRIMARY KEY,
  SiteName TEXT,
  City TEXT,
  StateCd TEXT,
  SiteType TEXT,
  CLIANo TEXT
);
CREATE TABLE Clinician (
  ClinicianID INTEGER PRIMARY KEY,
  FullName TEXT,
  Specialty TEXT,
  NPI TEXT,
  SiteID INTEGER REFERENCES Site(SiteID),
  ActiveYN TEXT
);
CREATE TABLE Patient (
  PatientID INTEGER PRIMARY KEY,
  MRN TEXT,
  FirstName TEXT,
  LastName TEXT,
  DOB TEXT,
  SexCd TEXT,
  ZipCode TEXT,
  InsPlan TEXT,
  PrefLang TEXT,
  SmokingStatus TEXT,
  PCP_ClinicianID INTEGER REFERENCES Clinician(ClinicianID)
);
''')
sites=[(1,'Riverside General Hospital Lab','Sacramento','CA','Hospital Lab','05D0643120'),
       (2,'Midtown Family Clinic','Sacramento','CA','Outpatient Clinic','05D1034567'),
       (3,'Elk Grove Urgent Care','Elk Grove','CA','Urgent Care','05D2099881'),
       (4,'Davis Community Health Center','Davis','CA','Outpatient Clinic','05D0871234')]
insert(c,'Site',['SiteID','SiteName','City','StateCd','SiteType','CLIANo'],sites)
clin=[(1,'Dr. Amelia Hart','Internal Medicine','1538291045',2,'Y'),(2,'Dr. Rahul Mehta','Endocrinology','1720384956',1,'Y'),
      (3,'Dr. Susan Whitaker','Family Medicine','1962049381',2,'Y'),(4,'Dr. Kenji Watanabe','Cardiology','1457382910',1,'Y'),
      (5,'Dr. Olivia Grant','Nephrology','1093847561',1,'Y'),(6,'Dr. Marcus Bell','Emergency Medicine','1629384750',3,'Y'),
      (7,'Dr. Fatima Nasser','Family Medicine','1847362519',4,'Y'),(8,'Dr. Paul Lindqvist','Internal Medicine','1376459201',4,'N'),
      (9,'Dr. Grace Okoye','Hematology','1209384756',1,'Y'),(10,'Nina Alvarez, NP','Family Medicine','1584736290',3,'Y')]
insert(c,'Clinician',['ClinicianID','FullName','Specialty','NPI','SiteID','ActiveYN'],clin)
fn_f=['Emma','Olivia','Ava','Mia','Sophia','Isabella','Chloe','Grace','Linda','Patricia','Rosa','Mei','Aisha','Hannah','Julia','Nancy','Teresa','Yuki']
fn_m=['Liam','Noah','James','Ethan','Lucas','Mason','Henry','Omar','Carlos','Robert','George','Wei','Arjun','Samuel','Frank','Ivan','Tom','Victor']
ln=['Johnson','Garcia','Miller','Davis','Rodriguez','Wilson','Anderson','Thomas','Lee','Nguyen','Patel','Clark','Lewis','Walker','Young','Hall','Kowalski','Fischer','Rossi','Tanaka']
pats=[]
for i in range(1,46):
    sex = random.choice(['F','M','F','M','U']) if i%15==0 else random.choice(['F','M'])
    fnm = random.choice(fn_f if sex=='F' else fn_m)
    pats.append((i,'MRN%06d' % (100000+i*137), fnm, random.choice(ln), '%d-%02d-%02d' % (random.randint(1938,2004),random.randint(1,12),random.randint(1,28)),
        sex, random.choice(['95814','95816','95818','95624','95616','95758','95823']), random.choice(['Medicare','Medicaid','Commercial','Commercial','Self-pay','Medicare']),
        random.choice(['English','English','English','Spanish','Vietnamese','Mandarin','Punjabi']), random.choice(['Never','Never','Former','Current']), random.choice([1,3,7,8,10])))
insert(c,'Patient',['PatientID','MRN','FirstName','LastName','DOB','SexCd','ZipCode','InsPlan','PrefLang','SmokingStatus','PCP_ClinicianID'],pats)

spec = [  # name, type, generator(profile)
 ('ResultID','INTEGER PRIMARY KEY',None),('PatientID','INTEGER REFERENCES Patient(PatientID)',None),('OrderingClinicianID','INTEGER REFERENCES Clinician(ClinicianID)',None),
 ('PerformingSiteID','INTEGER REFERENCES Site(SiteID)',None),('AccessionNo','TEXT',None),('CollectionDtTm','TEXT',None),('FastingYN','TEXT',None),('SpecimenType','TEXT',None),
 ('SBP_mmHg','INTEGER',lambda p: int(random.gauss(128+p['htn']*18,12))),('DBP_mmHg','INTEGER',lambda p:int(random.gauss(79+p['htn']*9,8))),
 ('HR_bpm','INTEGER',lambda p:int(random.gauss(74,11))),('RespRate_min','INTEGER',lambda p:random.randint(12,22)),('TempC','REAL',lambda p:round(random.gauss(36.8,.4),1)),
 ('SpO2_pct','INTEGER',lambda p:random.randint(91,100)),('Wt_kg','REAL',lambda p:round(p['wt']+random.uniform(-2,2),1)),('Ht_cm','REAL',lambda p:p['ht']),
 ('BMI','REAL',None),('WaistCirc_cm','REAL',lambda p:round(p['wt']*0.9+random.uniform(5,20),1)),
 ('WBC_K_uL','REAL',lambda p:round(random.gauss(7.2,2.2),1)),('RBC_M_uL','REAL',lambda p:round(random.gauss(4.7,.5),2)),('Hgb_g_dL','REAL',lambda p:round(random.gauss(13.8 - p['anem']*3,1.2),1)),
 ('Hct_pct','REAL',None),('MCV_fL','REAL',lambda p:round(random.gauss(89 - p['anem']*12,5),1)),('MCH_pg','REAL',lambda p:round(random.gauss(29.5,2),1)),
 ('MCHC_g_dL','REAL',lambda p:round(random.gauss(33.5,1),1)),('RDW_pct','REAL',lambda p:round(random.gauss(13.2+p['anem']*2,1),1)),('Plt_K_uL','INTEGER',lambda p:int(random.gauss(250,60))),
 ('Neut_pct','REAL',lambda p:round(random.gauss(60,8),1)),('Lymph_pct','REAL',lambda p:round(random.gauss(30,7),1)),('Mono_pct','REAL',lambda p:round(random.gauss(7,2),1)),
 ('Eos_pct','REAL',lambda p:round(abs(random.gauss(2.5,1.5)),1)),('Baso_pct','REAL',lambda p:round(abs(random.gauss(.6,.3)),1)),
 ('Na_mmol_L','INTEGER',lambda p:random.randint(133,146)),('K_mmol_L','REAL',lambda p:round(random.gauss(4.2+p['ckd']*.5,.4),1)),('Cl_mmol_L','INTEGER',lambda p:random.randint(97,108)),
 ('CO2_mmol_L','INTEGER',lambda p:random.randint(21,30)),('BUN_mg_dL','INTEGER',lambda p:int(random.gauss(15+p['ckd']*20,4))),('Creat_mg_dL','REAL',lambda p:round(abs(random.gauss(0.9+p['ckd']*1.4,.2)),2)),
 ('eGFR_mL_min_173m2','INTEGER',None),('Gluc_mg_dL','INTEGER',lambda p:int(random.gauss(95+p['dm']*70,15))),('Ca_mg_dL','REAL',lambda p:round(random.gauss(9.4,.4),1)),
 ('TotProt_g_dL','REAL',lambda p:round(random.gauss(7.0,.4),1)),('Alb_g_dL','REAL',lambda p:round(random.gauss(4.1,.3),1)),('TBili_mg_dL','REAL',lambda p:round(abs(random.gauss(.7,.3)),1)),
 ('AlkPhos_U_L','INTEGER',lambda p:int(random.gauss(80,22))),('ALT_U_L','INTEGER',lambda p:int(abs(random.gauss(25,14)))),('AST_U_L','INTEGER',lambda p:int(abs(random.gauss(24,10)))),
 ('TotChol_mg_dL','INTEGER',lambda p:int(random.gauss(195,35))),('HDL_mg_dL','INTEGER',lambda p:int(random.gauss(52,13))),('LDL_calc_mg_dL','INTEGER',None),
 ('Trig_mg_dL','INTEGER',lambda p:int(abs(random.gauss(140+p['dm']*60,50)))),('NonHDL_mg_dL','INTEGER',None),
 ('HbA1c_pct','REAL',lambda p:round(random.gauss(5.4+p['dm']*2.6,.4),1)),('FastingInsulin_uIU_mL','REAL',lambda p:round(abs(random.gauss(9+p['dm']*8,4)),1)),
 ('TSH_mIU_L','REAL',lambda p:round(abs(random.gauss(2.1,1.3)),2)),('FreeT4_ng_dL','REAL',lambda p:round(random.gauss(1.2,.2),2)),
 ('CRP_mg_L','REAL',lambda p:round(abs(random.gauss(3,4)),1)),('ESR_mm_hr','INTEGER',lambda p:int(abs(random.gauss(14,9)))),
 ('Ferritin_ng_mL','INTEGER',lambda p:int(abs(random.gauss(120 - p['anem']*100,60)))+5),('VitD25OH_ng_mL','REAL',lambda p:round(abs(random.gauss(29,10)),1)),
 ('B12_pg_mL','INTEGER',lambda p:int(random.gauss(480,150))),('Folate_ng_mL','REAL',lambda p:round(abs(random.gauss(12,4)),1)),('UricAcid_mg_dL','REAL',lambda p:round(random.gauss(5.6,1.3),1)),
 ('PSA_ng_mL','REAL',None),('INR','REAL',lambda p:round(random.gauss(1.0+p['warf']*1.6,.15),1)),('PT_sec','REAL',None),('aPTT_sec','REAL',lambda p:round(random.gauss(31,4),1)),
 ('Mg_mg_dL','REAL',lambda p:round(random.gauss(2.0,.2),1)),('Phos_mg_dL','REAL',lambda p:round(random.gauss(3.5+p['ckd']*.9,.5),1)),
 ('UACR_mg_g','REAL',lambda p:round(abs(random.gauss(12+p['ckd']*180+p['dm']*40,15)),1)),('UA_pH','REAL',lambda p:random.choice([5.0,5.5,6.0,6.5,7.0,7.5])),
 ('UA_SpGr','REAL',lambda p:random.choice([1.005,1.010,1.015,1.020,1.025,1.030])),('UA_Prot','TEXT',lambda p:random.choice(['NEG','NEG','NEG','TRACE','1+','2+']) if p['ckd'] else random.choice(['NEG','NEG','NEG','TRACE'])),
 ('UA_Gluc','TEXT',lambda p:random.choice(['NEG','1+','2+']) if p['dm'] else 'NEG'),('UA_Ketones','TEXT',lambda p:random.choice(['NEG','NEG','NEG','TRACE'])),
 ('HCG_Qual','TEXT',None),('CriticalValFlag','TEXT',None),('ResultStatus','TEXT',lambda p:random.choice(['Final','Final','Final','Final','Corrected','Preliminary'])),
 ('VerifiedByTech','TEXT',lambda p:random.choice(['JLM','TKR','AWS','PBN','CDH'])),('TAT_min','INTEGER',lambda p:random.randint(35,420)),
]
cols=[s[0] for s in spec]
c.execute('CREATE TABLE LabPanelResult (\n  ' + ',\n  '.join('%s %s' % (s[0],s[1]) for s in spec) + '\n)')
rows=[]; rid=1
prof={}
for p in pats:
    sex=p[5]
    prof[p[0]] = dict(htn=random.random()<.35, dm=random.random()<.25, ckd=random.random()<.15, anem=random.random()<.15 and sex!='M', warf=random.random()<.1,
        ht=round(random.gauss(176 if sex=='M' else 163,7),1), wt=round(random.gauss(86 if sex=='M' else 71,15),1))
for p in pats:
    pid=p[0]; pr=prof[pid]; age0 = 2023-int(p[4][:4])
    for k in range(random.choice([1,2,2,3])):
        r={}
        for name,typ,g in spec:
            if g: r[name]=g(pr)
        r['ResultID']=rid; r['PatientID']=pid
        oc = random.choice([p[10],p[10],2,4,5,6,9]); r['OrderingClinicianID']=oc
        r['PerformingSiteID']=random.choice([1,1,2,3,4])
        r['AccessionNo']='A23-%05d' % (rid*53 % 99999)
        r['CollectionDtTm']='20%d-%02d-%02d %02d:%02d' % (random.choice([22,23,23,24]),random.randint(1,12),random.randint(1,28),random.randint(6,17),random.choice([0,15,30,45]))
        r['FastingYN']=random.choice(['Y','N'])
        r['SpecimenType']=random.choice(['Venous blood','Venous blood','Venous blood','Capillary blood'])
        r['BMI']=round(r['Wt_kg']/(r['Ht_cm']/100)**2,1)
        r['Hct_pct']=round(r['Hgb_g_dL']*3+random.uniform(-1,1),1)
        age=age0
        egfr=int(min(120,max(8,141*min(r['Creat_mg_dL']/(0.7 if p[5]=='F' else 0.9),1)**-0.33*max(r['Creat_mg_dL']/(0.7 if p[5]=='F' else 0.9),1)**-1.2*0.993**age)))
        r['eGFR_mL_min_173m2']=egfr
        ldl=int(r['TotChol_mg_dL']-r['HDL_mg_dL']-r['Trig_mg_dL']/5); r['LDL_calc_mg_dL']=ldl; r['NonHDL_mg_dL']=r['TotChol_mg_dL']-r['HDL_mg_dL']
        r['PSA_ng_mL']=round(abs(random.gauss(1.5+age/40,1.4)),2) if p[5]=='M' and age>45 else None
        r['PT_sec']=round(r['INR']*12.2+random.uniform(-.4,.4),1)
        r['HCG_Qual']=random.choice(['NEG','NEG','NEG','NEG','POS']) if p[5]=='F' and age<50 else None
        crit = r['K_mmol_L']>=5.5 or r['K_mmol_L']<=3.0 or r['Gluc_mg_dL']>=250 or r['Hgb_g_dL']<=9.5 or r['INR']>=3.0
        r['CriticalValFlag']='Y' if crit else 'N'
        rows.append([r[x] for x in cols]); rid+=1
insert(c,'LabPanelResult',cols,rows)
c.commit()
print(len(cols),'wide cols',len(rows),'rows')
