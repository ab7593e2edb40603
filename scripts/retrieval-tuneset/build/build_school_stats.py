from common import *
random.seed(11)
c = fresh_db('school_stats')
c.executescript('''
CREATE TABLE counties (
  cnty_cd TEXT PRIMARY KEY,
  cnty_name TEXT,
  region_nm TEXT,
  pop_est_2020 INTEGER,
  urban_rural_cd TEXT
);
CREATE TABLE districts (
  dist_id INTEGER PRIMARY KEY,
  dist_name TEXT,
  cnty_cd TEXT REFERENCES counties(cnty_cd),
  dist_type TEXT,
  supt_name TEXT,
  nces_lea_id TEXT,
  charter_auth_flg INTEGER
);
CREATE TABLE schools (
  cds_code TEXT PRIMARY KEY,
  school_nm TEXT,
  dist_id INTEGER REFERENCES districts(dist_id),
  sch_type_cd TEXT,
  grade_span TEXT,
  charter_yn TEXT,
  magnet_yn TEXT,
  open_dt TEXT,
  street_addr TEXT,
  city TEXT,
  zip5 TEXT,
  lat REAL,
  lon REAL,
  title1_status TEXT,
  principal_nm TEXT
);
''')
counties = [
 ('01','Alameda','Bay Area',1682353,'U'),
 ('10','Fresno','Central Valley',1008654,'M'),
 ('19','Los Angeles','Southern',10014009,'U'),
 ('23','Mendocino','North Coast',91601,'R'),
 ('37','San Diego','Southern',3298634,'U'),
 ('54','Tulare','Central Valley',473117,'R'),
]
insert(c,'counties',['cnty_cd','cnty_name','region_nm','pop_est_2020','urban_rural_cd'],counties)
districts = [
 (101,'Oakland Unified','01','Unified','Kyla Johnson-Trammell','0628050',1),
 (102,'Fremont Unified','01','Unified','C.J. Cammack','0614400',0),
 (103,'Clovis Unified','10','Unified','Corrine Folmer','0608610',0),
 (104,'Fresno Unified','10','Unified','Misty Her','0614550',1),
 (105,'Long Beach Unified','19','Unified','Jill Baker','0622500',1),
 (106,'Palmdale Elementary','19','Elementary','Raul Maldonado','0629610',0),
 (107,'Ukiah Unified','23','Unified','Jason Hoyle','0640440',0),
 (108,'Chula Vista Elementary','37','Elementary','Eduardo Reyes','0608130',1),
 (109,'Sweetwater Union High','37','High','Moises Aguirre','0638460',0),
 (110,'Visalia Unified','54','Unified','Kirk Shrum','0641460',0),
]
insert(c,'districts',['dist_id','dist_name','cnty_cd','dist_type','supt_name','nces_lea_id','charter_auth_flg'],districts)
city_of = {101:'Oakland',102:'Fremont',103:'Clovis',104:'Fresno',105:'Long Beach',106:'Palmdale',107:'Ukiah',108:'Chula Vista',109:'Chula Vista',110:'Visalia'}
zip_of = {101:'946',102:'945',103:'936',104:'937',105:'908',106:'935',107:'954',108:'919',109:'919',110:'932'}
latlon = {101:(37.80,-122.27),102:(37.55,-121.99),103:(36.83,-119.70),104:(36.74,-119.79),105:(33.77,-118.19),106:(34.58,-118.12),107:(39.15,-123.21),108:(32.64,-117.08),109:(32.63,-117.05),110:(36.33,-119.29)}
# (name, dist, type)
sch = [
 ('Lincoln Elementary',101,'ES'),('Skyline High',101,'HS'),('Westlake Middle',101,'MS'),('Oakland School for the Arts',101,'HS'),
 ('Mission San Jose High',102,'HS'),('Mission Valley Elementary',102,'ES'),('Hopkins Middle',102,'MS'),
 ('Clovis West High',103,'HS'),('Fort Washington Elementary',103,'ES'),('Kastner Intermediate',103,'MS'),
 ('Roosevelt High',104,'HS'),('Bullard Talent K-8',104,'K8'),('Ewing Elementary',104,'ES'),
 ('Polytechnic High',105,'HS'),('Lakewood High',105,'HS'),('Hudson K-8',105,'K8'),('Bixby Elementary',105,'ES'),
 ('Yucca Elementary',106,'ES'),('Cactus Middle',106,'MS'),('Desert Rose Elementary',106,'ES'),
 ('Ukiah High',107,'HS'),('Yokayo Elementary',107,'ES'),('Pomolita Middle',107,'MS'),
 ('Feaster Charter',108,'K8'),('Heritage Elementary',108,'ES'),('Otay Elementary',108,'ES'),
 ('Bonita Vista High',109,'HS'),('Castle Park Middle',109,'MS'),('Chula Vista High',109,'HS'),
 ('Golden West High',110,'HS'),('Redwood High',110,'HS'),('Green Acres Middle',110,'MS'),('Mineral King Elementary',110,'ES'),
]
span = {'ES':'K-5','MS':'6-8','HS':'9-12','K8':'K-8'}
grades = {'ES':['k',1,2,3,4,5],'MS':[6,7,8],'HS':[9,10,11,12],'K8':['k',1,2,3,4,5,6,7,8]}
first = ['Maria','James','Linda','Robert','Angela','David','Sofia','Michael','Karen','Luis','Priya','Thomas','Grace','Daniel','Nora','Hector']
last = ['Garcia','Nguyen','Smith','Patel','Lopez','Kim','Brown','Hernandez','Chen','Wilson','Ramirez','Okafor','Singh','Martinez','Baker','Ortiz']
streets = ['Oak St','Main St','Elm Ave','Pine Rd','Maple Dr','Cedar Blvd','Lincoln Ave','Washington St','Park Way','Mission Blvd']
schools=[]
for i,(nm,d,t) in enumerate(sch):
    cnty = [x for x in districts if x[0]==d][0][2]
    cds = cnty + str(d)[1:] + '%04d' % (6000+ i*37) + '%03d' % (i*7 % 1000)
    charter = 'Y' if nm in ('Oakland School for the Arts','Feaster Charter','Bullard Talent K-8') else 'N'
    magnet = 'Y' if nm in ('Polytechnic High','Bullard Talent K-8','Clovis West High') else 'N'
    la,lo = latlon[d]
    schools.append((cds,nm,d,t,span[t],charter,magnet,'%d-%02d-01' % (random.randint(1925,2012),random.choice([7,8,9])),
        '%d %s' % (random.randint(100,9800),random.choice(streets)), city_of[d], zip_of[d]+'%02d' % random.randint(1,99),
        round(la+random.uniform(-.05,.05),4), round(lo+random.uniform(-.05,.05),4),
        random.choice(['Schoolwide','Targeted','Not Title I','Schoolwide']), random.choice(first)+' '+random.choice(last)))
insert(c,'schools',['cds_code','school_nm','dist_id','sch_type_cd','grade_span','charter_yn','magnet_yn','open_dt','street_addr','city','zip5','lat','lon','title1_status','principal_nm'],schools)

cols = ['stat_id','cds_code','acad_yr','rpt_dt','enr_total','enr_k'] + ['enr_gr%d'%g for g in range(1,13)] + [
 'enr_female','enr_male','enr_nonbin','pct_frpm_elig','pct_free_meal_elig','pct_sed','pct_el','pct_swd','pct_homeless','pct_foster','pct_migrant',
 'eth_hisp_cnt','eth_white_cnt','eth_black_cnt','eth_asian_cnt','eth_filipino_cnt','eth_aian_cnt','eth_nhpi_cnt','eth_multi_cnt',
 'fte_tchr','fte_counselor','fte_nurse','fte_admin','stu_tchr_ratio','avg_tchr_exp_yrs','pct_tchr_fully_cred','pct_tchr_1st_yr','avg_tchr_sal_usd','avg_class_sz',
 'chronic_abs_rt','ada_pct','susp_cnt','susp_rt','expul_cnt',
 'grad_cohort_n','grad_rt_4yr','dropout_rt','ag_compl_pct','ap_tests_taken','ap_pass_pct','sat_avg_ebrw','sat_avg_math','act_avg_comp',
 'ela_met_pct','math_met_pct','sci_met_pct','ela_dfs','math_dfs',
 'ppe_usd','tot_rev_usd','fed_rev_usd','st_rev_usd','loc_rev_usd',
 'bldg_sqft','num_portables','yr_last_modrn','bb_mbps','devices_per_stu','lib_vols_per_stu',
 'gate_pct','el_reclass_rt','cte_conc_pct','dual_enr_cnt','bus_riders_cnt','sbp_partic_pct','nslp_meals_srvd','vacc_compl_pct_k','facil_cond_rtg','pft_hfz_pct']
types = {'cds_code':'TEXT REFERENCES schools(cds_code)','acad_yr':'TEXT','rpt_dt':'TEXT','facil_cond_rtg':'TEXT','stat_id':'INTEGER PRIMARY KEY'}
intcols = set(['enr_total','enr_k','enr_female','enr_male','enr_nonbin','susp_cnt','expul_cnt','grad_cohort_n','ap_tests_taken','sat_avg_ebrw','sat_avg_math',
  'bldg_sqft','num_portables','yr_last_modrn','bb_mbps','dual_enr_cnt','bus_riders_cnt','nslp_meals_srvd','tot_rev_usd','fed_rev_usd','st_rev_usd','loc_rev_usd','avg_tchr_sal_usd','ppe_usd']
  + [x for x in cols if x.startswith('eth_') or x.startswith('enr_gr')])
ddl = 'CREATE TABLE sch_yr_stats (\n  ' + ',\n  '.join('%s %s' % (x, types.get(x, 'INTEGER' if x in intcols else 'REAL')) for x in cols) + '\n)'
c.execute(ddl)
rows=[]; sid=1
for s in schools:
    cds,nm,d,t = s[0],s[1],s[2],s[3]
    base_pov = {101:75,102:18,103:35,104:86,105:68,106:80,107:60,108:55,109:58,110:62}[d] + random.uniform(-10,10)
    base_size = {'ES':480,'MS':850,'HS':1900,'K8':700}[t]
    for yi,yr in enumerate(['2021-22','2022-23']):
        r = {'stat_id':sid,'cds_code':cds,'acad_yr':yr,'rpt_dt':'20%d-10-0%d' % (21+yi, random.randint(1,6))}
        sid+=1
        tot=0
        for g in ['k']+list(range(1,13)):
            key = 'enr_k' if g=='k' else 'enr_gr%d'%g
            if g in grades[t]:
                v = int(base_size/len(grades[t])*random.uniform(.85,1.15)); r[key]=v; tot+=v
            else: r[key]=0
        r['enr_total']=tot
        nb = random.randint(0,6); f = int(tot*random.uniform(.46,.52)); r['enr_female']=f; r['enr_nonbin']=nb; r['enr_male']=tot-f-nb
        pov = max(5,min(98,base_pov+random.uniform(-3,3)))
        r['pct_frpm_elig']=round(pov,1); r['pct_free_meal_elig']=round(pov*random.uniform(.75,.9),1); r['pct_sed']=round(min(99,pov+random.uniform(0,4)),1)
        r['pct_el']=round(random.uniform(4,38) if t!='HS' else random.uniform(3,20),1); r['pct_swd']=round(random.uniform(8,17),1)
        r['pct_homeless']=round(random.uniform(0,6),1); r['pct_foster']=round(random.uniform(0,1.5),1); r['pct_migrant']=round(random.uniform(0,9) if d in (104,110,103) else random.uniform(0,1),1)
        shares = [random.random() for _ in range(8)]
        if d in (104,106,108,109,110): shares[0]*=5
        if d==102: shares[3]*=6
        if d==101: shares[2]*=3
        ssum=sum(shares); rem=tot
        for k,key in enumerate(['eth_hisp_cnt','eth_white_cnt','eth_black_cnt','eth_asian_cnt','eth_filipino_cnt','eth_aian_cnt','eth_nhpi_cnt','eth_multi_cnt']):
            v = int(tot*shares[k]/ssum) if k<7 else rem; rem-=v if k<7 else 0; r[key]=v
        ft = round(tot/random.uniform(19,27),1); r['fte_tchr']=ft
        r['fte_counselor']=round(tot/random.uniform(350,650),1); r['fte_nurse']=round(random.choice([0.2,0.4,0.5,1.0,1.0]),1); r['fte_admin']=round(random.uniform(1,5),1)
        r['stu_tchr_ratio']=round(tot/ft,1); r['avg_tchr_exp_yrs']=round(random.uniform(6,17),1); r['pct_tchr_fully_cred']=round(random.uniform(78,99),1)
        r['pct_tchr_1st_yr']=round(random.uniform(2,15),1); r['avg_tchr_sal_usd']=random.randint(68,118)*1000+random.randint(0,999); r['avg_class_sz']=round(random.uniform(21,33),1)
        r['chronic_abs_rt']=round(random.uniform(6,38) - (10 if yi==1 else 0) + pov/10,1); r['ada_pct']=round(random.uniform(88,97),1)
        r['susp_cnt']=int(tot*random.uniform(0,.07)); r['susp_rt']=round(r['susp_cnt']/tot*100,1); r['expul_cnt']=random.choice([0,0,0,1,2,3]) if t!='ES' else 0
        if t=='HS':
            r['grad_cohort_n']=int(r['enr_gr12']*random.uniform(1.0,1.1)); r['grad_rt_4yr']=round(random.uniform(78,98),1); r['dropout_rt']=round(random.uniform(1,12),1)
            r['ag_compl_pct']=round(random.uniform(30,75),1); r['ap_tests_taken']=random.randint(80,1400); r['ap_pass_pct']=round(random.uniform(35,85),1)
            r['sat_avg_ebrw']=random.randint(470,640); r['sat_avg_math']=random.randint(450,670); r['act_avg_comp']=round(random.uniform(18,28),1)
            r['cte_conc_pct']=round(random.uniform(8,40),1); r['dual_enr_cnt']=random.randint(10,260)
        else:
            for k in ['grad_cohort_n','grad_rt_4yr','dropout_rt','ag_compl_pct','ap_tests_taken','ap_pass_pct','sat_avg_ebrw','sat_avg_math','act_avg_comp','cte_conc_pct','dual_enr_cnt']: r[k]=None
        adj = (60-pov)/3
        r['ela_met_pct']=round(max(8,min(90,45+adj+random.uniform(-8,8))),1); r['math_met_pct']=round(max(5,min(88,35+adj+random.uniform(-8,8))),1)
        r['sci_met_pct']=round(max(5,min(85,30+adj+random.uniform(-8,8))),1)
        r['ela_dfs']=round((r['ela_met_pct']-45)*2.1+random.uniform(-5,5),1); r['math_dfs']=round((r['math_met_pct']-38)*2.4+random.uniform(-5,5),1)
        ppe = random.randint(11500,19800); r['ppe_usd']=ppe; tr=int(ppe*tot*random.uniform(1.0,1.08)); r['tot_rev_usd']=tr
        fr=int(tr*random.uniform(.05,.15)); sr=int(tr*random.uniform(.5,.65)); r['fed_rev_usd']=fr; r['st_rev_usd']=sr; r['loc_rev_usd']=tr-fr-sr
        r['bldg_sqft']=int(tot*random.uniform(75,120)); r['num_portables']=random.randint(0,14); r['yr_last_modrn']=random.randint(1988,2021)
        r['bb_mbps']=random.choice([100,250,500,1000,1000,10000]); r['devices_per_stu']=round(random.uniform(.6,1.3),2); r['lib_vols_per_stu']=round(random.uniform(3,22),1)
        r['gate_pct']=round(random.uniform(1,18),1); r['el_reclass_rt']=round(random.uniform(4,22),1); r['bus_riders_cnt']=int(tot*random.uniform(.03,.4))
        r['sbp_partic_pct']=round(random.uniform(12,70),1); r['nslp_meals_srvd']=int(tot*180*random.uniform(.3,.8))
        r['vacc_compl_pct_k']=round(random.uniform(88,99.5),1) if 'k' in grades[t] else None
        r['facil_cond_rtg']=random.choice(['Good','Good','Fair','Exemplary','Poor','Fair'])
        r['pft_hfz_pct']=round(random.uniform(25,70),1) if t!='ES' else None
        rows.append([r[x] for x in cols])
insert(c,'sch_yr_stats',cols,rows)
c.commit()
print(len(cols),'wide cols', len(rows),'rows')
