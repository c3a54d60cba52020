#!/usr/bin/env python3
"""Held-back relevance set #2 for the memory selector.

Deterministic, standard library only.  Run:  python3 build.py
Writes set.json and README.md next to this script and validates them.

Persona: Ines Valderrama, 41, freelance marine biologist (kelp forests) and
amateur cellist in Valparaiso, Chile.  Simulated 'today' is Monday 1 Sept 2025.
"""

import datetime
import json
import os
import random
import re
import sys

TODAY = datetime.date(2025, 9, 1)
SEED = 20250901
HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------------------
# Core entries: (key, type, days_ago, value[, description])
# Hand-written.  Older versions of changed facts are kept on purpose.
# ---------------------------------------------------------------------------
CORE = [
    # ---------------- health (self) ----------------
    (
        "diagnosis_2022",
        "fact",
        1110,
        "Coeliac disease confirmed by biopsy in August 2022. Strictly gluten-free since; even crumbs from a shared toaster make me ill for three days.",
        "health",
    ),
    (
        "inhaler",
        "fact",
        640,
        "Mild exercise-induced asthma. Salbutamol 100 mcg: two puffs 15 minutes before diving, hill runs or any hard effort. One inhaler lives in the dive bag, one in the glovebox.",
    ),
    (
        "thyroid_med",
        "fact",
        520,
        "Hypothyroidism since 2019. Levothyroxine 75 mcg, one tablet each morning with water on an empty stomach.",
        "medication",
    ),
    (
        "meds_update_nov",
        "fact",
        290,
        "After the November bloodwork Dr. Fuenzalida bumped my thyroid tablet (Eutirox) up to 88 — still first thing at 6:30, half an hour before breakfast.",
    ),
    (
        "allergies",
        "fact",
        1400,
        "Penicillin allergy: hives and a swollen face after amoxicillin in 2009. Tell every doctor and dentist.",
    ),
    (
        "left_wrist",
        "event",
        200,
        "De Quervain tendinitis in the left wrist flared up in February from cello plus kayaking. Physio Daniela Rojas: rubber-band exercises twice a day, ice after practice, and no paddling until she clears it.",
        "health",
    ),
    (
        "physio_aug",
        "event",
        40,
        "Daniela gave the OK to get back on the water — sessions of an hour max — and wants the brace on for long rehearsals.",
    ),
    (
        "endocrinologist",
        "fact",
        700,
        "Endocrinologist: Dr. Ignacio Fuenzalida at Clínica Reñaca, Tuesday and Thursday afternoons. TSH and free T4 every six months.",
    ),
    (
        "dentist",
        "fact",
        380,
        "Dentist: Dra. Paula Leiva in Viña (5 Norte). Cleaning every six months; last one in March, next due in September.",
    ),
    (
        "isapre",
        "fact",
        600,
        "Health insurance: Isapre Colmena, private plan at about 4.2 UF a month, 80% coverage at Clínica Reñaca.",
        "insurance",
    ),
    (
        "health_plan",
        "decision",
        230,
        "Left Colmena in January. On Fonasa now (tramo D), buying bonos for specialist visits.",
    ),
    ("blood_type", "fact", 1500, "Blood group O negative, from the 2018 donor card."),
    (
        "eyes",
        "fact",
        800,
        "Myopic, -2.25 in both eyes. Daily disposable contacts for diving, black-framed glasses for screen work. Optometrist at Óptica Schilling, Valparaíso.",
    ),
    (
        "vaccines",
        "fact",
        330,
        "Vaccination record: yellow fever 2019 (lifetime), tetanus booster 2021, hepatitis A and B complete, COVID booster October 2024, flu shot every April.",
    ),
    (
        "dive_medical",
        "event",
        150,
        "Passed the annual dive medical in April. Asthma is fine for diving as long as I use the inhaler beforehand and never dive with symptoms.",
    ),
    (
        "cholesterol",
        "fact",
        420,
        "Lipid panel 2024: LDL 162, doctor wants it under 130. Cut fried food, walk more.",
    ),
    (
        "lab_results_aug",
        "event",
        12,
        "August bloodwork: bad cholesterol down to 118, within the normal range — no statins.",
    ),
    (
        "therapist",
        "fact",
        400,
        "Psychologist Verónica Palma, online every other Thursday at 18:00 since the separation; 40.000 CLP a session out of pocket.",
    ),
    (
        "dan_membership",
        "fact",
        170,
        "DAN World membership renewed in March: covers hyperbaric chamber treatment and evacuation after a dive accident, worldwide.",
    ),
    ("shoe_size", "fact", 900, "Shoe size 38 EU; neoprene boots size 39."),
    (
        "languages",
        "fact",
        1300,
        "Spanish native, English fluent (two years in Tasmania), Portuguese around B1, school German I've mostly forgotten.",
    ),
    ("my_birthday", "fact", 1200, "My birthday is 19 April (born 1984)."),
    ("sleep", "fact", 300, "I sleep badly before early dives; 3 mg melatonin helps."),
    # ---------------- health (other people: near-duplicates) ----------------
    (
        "camila_allergy",
        "fact",
        300,
        "Camila (viola) has a serious shellfish allergy — carries an EpiPen; even fish sauce can set it off.",
    ),
    (
        "mateo_hayfever",
        "fact",
        400,
        "Mateo gets hay fever every spring, September to November; cetirizine 10 mg at night.",
    ),
    (
        "mama_pills",
        "fact",
        50,
        "At the residence the nurses give Mamá donepezil 10 mg at night and losartan 50 mg in the morning.",
    ),
    (
        "merluza_meds",
        "fact",
        180,
        "Merluza is on methimazole 2.5 mg twice a day for her overactive thyroid, mixed into wet food.",
    ),
    (
        "joaquin_health",
        "fact",
        200,
        "Joaquín is allergic to cats — sneezing and itchy eyes within the hour; he takes loratadine before staying over.",
    ),
    (
        "antonia",
        "fact",
        150,
        "Antonia (Joaquín's daughter, 9) has a peanut allergy: no peanut butter, check chocolate labels.",
    ),
    (
        "andres_diabetes",
        "fact",
        900,
        "Lucía's husband Andrés has type 1 diabetes and wears an insulin pump.",
    ),
    (
        "pipe_2024",
        "event",
        330,
        "Pipe ruptured an eardrum (barotrauma) last year; cleared to dive again but only down to 15 m.",
    ),
    ("valentina_diet", "fact", 900, "Vale has been vegan for ten years and also avoids palm oil."),
    (
        "mateo_braces",
        "event",
        170,
        "Mateo got braces in March with Dr. Muñoz (orthodontist, Viña); monthly check-ups at 75.000 CLP each, Rodrigo and I split it.",
    ),
    (
        "mum_doctor",
        "fact",
        100,
        "Mamá's neurologist is Dr. Riquelme at Clínica Santa María; next check-up 20 October.",
    ),
    ("francisca", "fact", 700, "Rodrigo's wife Francisca is a dentist with a practice in Reñaca."),
    ("pablo_health", "fact", 500, "Pablo had his appendix out in 2022 in Melbourne; fine since."),
    ("hannah_diet", "fact", 300, "Hannah is lactose intolerant."),
    # ---------------- family ----------------
    ("mateo", "fact", 1000, "My son Mateo was born on 14 June 2010 in Viña del Mar.", "family"),
    (
        "mateo_school",
        "fact",
        250,
        "Mateo is at the Colegio Alemán de Valparaíso, 2° medio this year; classes 8:00–16:15.",
    ),
    (
        "custody",
        "fact",
        800,
        "Custody with Rodrigo: alternate weeks, handover Sunday 18:00 at his place in Viña.",
    ),
    (
        "mediation_march",
        "decision",
        150,
        "Since the March mediation Mateo is with me during school term and spends weekends at his dad's, Friday after school until Sunday night.",
    ),
    (
        "mateo_football",
        "fact",
        260,
        "Mateo plays centre-back for the Everton youth team (sub-16): training Tuesday and Thursday 18:00 at Sausalito, matches Saturday mornings.",
    ),
    (
        "mateo_food",
        "fact",
        700,
        "Mateo eats everything; favourites are pastel de choclo and completos.",
    ),
    (
        "mateo_news",
        "event",
        60,
        "Mateo announced he's gone vegetarian — no meat or fish, but eggs and cheese are fine.",
    ),
    (
        "mateo_future",
        "fact",
        500,
        "Mateo says he wants to be a vet, like the one who treats Merluza.",
    ),
    (
        "mateo_update",
        "event",
        45,
        "Mateo's new plan: study sound engineering; he's been recording bands in his bedroom.",
    ),
    (
        "mateo_exchange",
        "event",
        30,
        "Mateo's school exchange to Hamburg: 10 January to 28 February 2026. Deposit of 800 EUR due 30 September.",
    ),
    (
        "mateo_allowance",
        "decision",
        180,
        "Mateo's weekly allowance is 25.000 CLP, paid on Sundays.",
    ),
    (
        "mateo_friend",
        "fact",
        150,
        "Mateo's best friend is Tomás Lagos; his mum Carolina is the emergency contact when I'm away.",
    ),
    ("mateo_phone", "fact", 200, "Mateo has a Samsung A54 on a line under my name."),
    (
        "rodrigo",
        "fact",
        900,
        "Rodrigo Paredes, my ex-husband, architect with his own studio in Viña. We get along fine; he remarried in 2022.",
    ),
    ("rodrigo_car", "fact", 300, "Rodrigo drives a grey Volvo XC40 hybrid."),
    (
        "rodrigo_address",
        "fact",
        600,
        "Rodrigo and Francisca live on Calle Álvarez in Viña, near Quinta Vergara.",
    ),
    ("rodrigo_contact", "preference", 300, "Rodrigo prefers WhatsApp voice notes to phone calls."),
    (
        "mum",
        "fact",
        700,
        "Mamá (Carmen Soto) is 72. Diagnosed with early Alzheimer's in 2023.",
        "family",
    ),
    (
        "mama_living",
        "fact",
        420,
        "Mamá still lives in her own flat in Ñuñoa; Rosa Quispe comes Monday to Friday, 9 to 18.",
    ),
    (
        "rosa",
        "fact",
        420,
        "Rosa is paid 650.000 CLP a month, split three ways between Lucía, Pablo and me.",
    ),
    (
        "mama_update",
        "event",
        55,
        "Since July Mamá has been at Residencia Los Almendros in La Reina. Visiting hours 11–13 and 16–19; bring her reading glasses.",
    ),
    (
        "los_almendros",
        "fact",
        54,
        "The residence costs 1.9 million CLP monthly: her pension covers 700k and each of the three siblings adds 400k.",
    ),
    (
        "mama_visits",
        "decision",
        50,
        "Lucía visits Mamá on Saturdays; I go every second Sunday on the 8:00 Turbus from Valparaíso.",
    ),
    ("mum_birthday", "fact", 800, "Mamá's birthday is 3 October."),
    (
        "lucia",
        "fact",
        1000,
        "My sister Lucía lives in Concepción; paediatric nurse at the Hospital Regional. Married to Andrés, twin girls Sofía and Emilia (born 2019).",
        "family",
    ),
    (
        "lucia_update",
        "event",
        70,
        "Lucía changed jobs — she now coordinates the neonatal ICU at Clínica Sanatorio Alemán.",
    ),
    ("lucia_birthday", "fact", 900, "Lucía's birthday: 22 February."),
    ("twins_birthday", "fact", 600, "Sofía and Emilia's birthday is 9 July."),
    ("twins_gifts", "note", 200, "The twins are into dinosaurs and Bluey at the moment."),
    (
        "lucia_trip",
        "event",
        100,
        "Lucía, Andrés and the twins spent the July winter holidays in Bariloche.",
    ),
    ("lucia_dog", "fact", 500, "Lucía's family has a golden retriever called Chocolo."),
    ("lucia_address", "fact", 600, "Lucía's house is in San Pedro de la Paz, near the lagoon."),
    ("andres", "fact", 800, "Andrés works as an engineer at the Huachipato steel plant."),
    (
        "andres_update",
        "event",
        120,
        "After Huachipato shut down, Andrés found work with a wind-farm company near Los Ángeles; commutes weekly.",
    ),
    (
        "pablo",
        "fact",
        1000,
        "My brother Pablo has lived in Melbourne (Brunswick) since 2015; works as a software tester. Partner: Hannah Clarke.",
        "family",
    ),
    (
        "pablo_update",
        "event",
        150,
        "Pablo got promoted — he leads the QA team at a fintech in the CBD now.",
    ),
    ("pablo_call", "decision", 400, "I call Pablo on Sundays at 20:00 (Monday morning for him)."),
    (
        "pablo_wedding",
        "event",
        120,
        "Pablo and Hannah's wedding: Saturday 15 November 2025 at Yering Station winery, Yarra Valley. I'm giving a short speech in English and Spanish.",
    ),
    (
        "hannah_message",
        "note",
        90,
        "From Hannah: dress code is garden formal, no black, and skip stilettos because the ceremony is on the lawn.",
    ),
    (
        "wedding_gift",
        "decision",
        45,
        "Lucía and I will go halves on a gift: a contribution to their Japan honeymoon, 300 AUD each.",
    ),
    (
        "wedding_flights",
        "event",
        70,
        "Booked LATAM SCL–MEL direct, leaving 11 November at 23:50, back 23 November.",
    ),
    (
        "idea_toast",
        "note",
        30,
        "Toast idea: Pablo getting lost at Isla Negra aged six and being found eating empanadas with the fishermen. Keep it under three minutes.",
    ),
    ("hannah_birthday", "fact", 400, "Hannah's birthday is 2 May."),
    ("hannah_job", "fact", 400, "Hannah teaches at a primary school in Fitzroy."),
    (
        "hannah_family",
        "fact",
        300,
        "Hannah's parents live in Ballarat; her dad Graham is a retired vet.",
    ),
    (
        "dad",
        "fact",
        1600,
        "Papá (Jorge Valderrama) died in 2016; we scattered his ashes off Quintay. He was a marine engineer.",
    ),
    (
        "dating",
        "fact",
        380,
        "Not dating anyone since the divorce, and honestly happy that way for now.",
    ),
    (
        "joaquin",
        "fact",
        230,
        "Seeing Joaquín Araya since January — boat carpenter at Caleta Portales who restores old wooden fishing boats. He has a daughter, Antonia (9).",
    ),
    (
        "joaquin_anniv",
        "note",
        228,
        "First date with Joaquín: 18 January, drinks at the Cinzano bar.",
    ),
    ("joaquin_bike", "fact", 200, "Joaquín rides an old red Honda CB250."),
    (
        "joaquin_bday",
        "fact",
        300,
        "Joaquín's birthday is 12 August; he likes single malts and sea shanties.",
    ),
    ("antonia_bday", "fact", 150, "Antonia turns ten on 30 November."),
    (
        "camila_wedding",
        "event",
        100,
        "Camila marries Diego on 4 January 2026 in Zapallar; she asked me to play cello in the string quartet at the ceremony.",
    ),
    (
        "note_quartet",
        "note",
        20,
        "Quartet set for Camila's ceremony: Pachelbel's Canon for the entrance, Gabriel's Oboe, and 'In My Life' for the exit. Rehearsals at Rocío's on Sundays in December.",
    ),
    # ---------------- friends & neighbours ----------------
    (
        "valentina",
        "fact",
        1300,
        "Valentina Ortiz — best friend since our marine biology degree at UV; now a labour lawyer in Santiago (Providencia).",
    ),
    (
        "vale_news",
        "event",
        80,
        "Vale took a clerk post at the labour court in Valdivia; moved down south in June with Nico.",
    ),
    ("vale_partner", "fact", 300, "Vale's partner Nico is a sommelier; they have two cats."),
    (
        "valentina_trip",
        "event",
        20,
        "Vale is visiting 18–20 October and staying in the guest room.",
    ),
    ("valentina_bday", "fact", 600, "Vale's birthday is 30 March."),
    ("camila", "fact", 500, "Camila Herrera plays viola in the orchestra; pharmacist in Viña."),
    (
        "rehearsal_rides",
        "fact",
        400,
        "Camila picks me up for rehearsals in her yellow Fiat 500; I chip in for petrol.",
    ),
    (
        "carpool",
        "event",
        25,
        "Now I take the Jimny to orchestra and give Rocío (second violins) a lift from Cerro Barón.",
    ),
    (
        "rocio",
        "fact",
        300,
        "Rocío Gallardo, second violin, music teacher at a school in Barón; organises our quartet gigs.",
    ),
    ("rocio_bday", "fact", 250, "Rocío's birthday is 27 September."),
    (
        "felipe",
        "fact",
        800,
        "Felipe 'Pipe' Morales — diving buddy and field assistant on contracts; he invoices me separately.",
    ),
    (
        "felipe_car",
        "fact",
        350,
        "Pipe drives a white 2018 Toyota Hilux with the compressor in the back; charges 250 CLP per km when we use it for fieldwork.",
    ),
    (
        "felipe_cert",
        "fact",
        600,
        "Pipe is a PADI instructor and holds the commercial diver licence from Directemar.",
    ),
    ("pipe_bday", "fact", 500, "Pipe's birthday: 5 December."),
    ("spare_key", "fact", 700, "Señora Gladys downstairs keeps the spare set for the flat."),
    (
        "neighbour",
        "fact",
        130,
        "Don Hernán next door (No. 412) holds a copy of our front-door key. Retired sailor, loves talking about whales.",
    ),
    ("capitan", "fact", 120, "Don Hernán's dog Capitán barks at everyone who walks past."),
    (
        "neighbour_2",
        "fact",
        120,
        "The Pérez family on the other side have two small kids and a trampoline.",
    ),
    (
        "marcela",
        "fact",
        900,
        "Dra. Marcela Ibáñez — colleague at Universidad de Valparaíso, co-author on the kelp heatwave paper, runs the phycology lab.",
    ),
    (
        "marcela_car",
        "fact",
        260,
        "Marcela drives a blue Hyundai Tucson and often gives me a lift to Montemar.",
    ),
    (
        "marcela_lab",
        "fact",
        500,
        "Marcela's lab has a -80 freezer where I can keep my tissue samples.",
    ),
    (
        "soledad",
        "fact",
        400,
        "Soledad Marín hosts the book club; retired literature teacher with strong opinions on Chilean women writers.",
    ),
    (
        "helen_marsh",
        "fact",
        900,
        "Prof. Helen Marsh was my MSc supervisor at the University of Tasmania; still at IMAS in Hobart, we email a few times a year.",
    ),
    (
        "benjamin_student",
        "fact",
        200,
        "Thesis student Benjamín Soto (UV) studies urchin grazing at Quintay; we meet every other Friday at 10:00.",
    ),
    (
        "catalina_student",
        "fact",
        300,
        "Catalina Rojas, undergraduate intern, helps with image analysis of the quadrat photos on Wednesdays.",
    ),
    (
        "freediving_buddy",
        "fact",
        300,
        "Freediving training partner: Ignacia (AIDA instructor); pool sessions Saturdays 8:00 at the Viña aquatic centre.",
    ),
    (
        "don_lucho",
        "fact",
        500,
        "Don Lucho (Luis Cárcamo) has fished out of Quintay for forty years and knows every rock on the north side.",
    ),
    # ---------------- work ----------------
    (
        "work_profile",
        "fact",
        1300,
        "Freelance marine biologist with my own SpA (Valderrama Consultoría Marina). Specialty: kelp forests and benthic surveys on the central coast.",
        "work",
    ),
    (
        "education",
        "fact",
        1500,
        "BSc in marine biology at Universidad de Valparaíso (2006); MSc at the University of Tasmania in Hobart (2009–2011).",
    ),
    ("day_rate", "fact", 700, "Consulting day rate: 6 UF, plus boat and equipment at cost."),
    ("rate_2024", "decision", 420, "Put my fee up to 7 UF at the start of 2024."),
    (
        "pricing",
        "decision",
        200,
        "From March: 8.5 UF per field day; desk work billed hourly at 1.2 UF.",
    ),
    (
        "client_salmones",
        "fact",
        600,
        "Client Salmones Austral: environmental monitoring at their farm in Quemchi, Chiloé. Contact Gonzalo Vera. Pays at 60 days, usually late.",
    ),
    (
        "salmones_farm",
        "note",
        300,
        "Getting to the Quemchi farm: fly to Puerto Montt, drive to Pargua, ferry to Chiloé, then 1.5 hours more by road.",
    ),
    (
        "boleta_231",
        "event",
        10,
        "Boleta 231 to Salmones Austral — 4.800.000 CLP for the June survey — still unpaid at the end of August.",
    ),
    (
        "decision_salmon",
        "decision",
        35,
        "No more salmon-farm work after the Quemchi contract ends in December; it clashes with the restoration work and I don't like the ethics.",
    ),
    (
        "fundacion",
        "fact",
        450,
        "Fundación Mar Adentro funds my kelp restoration pilot at Quintay: 38 million CLP over two years. Contact: Isidora Fernández.",
    ),
    (
        "fundacion_update",
        "event",
        30,
        "Isidora has left; the new programme officer is Martín Reyes (mreyes@maradentro.cl).",
    ),
    (
        "invoice_fundacion",
        "event",
        90,
        "The Fundación paid the second instalment (9.5 million CLP) on time in June.",
    ),
    (
        "fundacion_report",
        "note",
        50,
        "Interim report for the Fundación due 30 September: survival of the outplanted kelp, photos, budget execution.",
    ),
    (
        "kelp_pilot_status",
        "note",
        25,
        "Quintay pilot after winter: 62% of the lines still hold kelp; urchin barrens spreading on the north side.",
    ),
    (
        "survey_sept",
        "note",
        12,
        "Next Quintay survey: 5–6 September with Pipe; boat confirmed with Don Lucho.",
    ),
    (
        "uv_teaching",
        "fact",
        550,
        "Adjunct lecturer at Universidad de Valparaíso: Ecología Marina for third-years, first semester, Tuesday and Thursday 8:30 at Montemar.",
    ),
    (
        "uv_contract",
        "fact",
        540,
        "UV pays 28.000 CLP gross per lecture hour, by boleta at the end of each month of the semester.",
    ),
    (
        "students_eval",
        "event",
        90,
        "Student evaluations for Ecología Marina: 6.4 out of 7; they want more field trips.",
    ),
    (
        "montemar",
        "fact",
        800,
        "I can use a hot desk at the Montemar marine station in Reñaca any weekday.",
    ),
    (
        "paper",
        "event",
        250,
        "Submitted the kelp heatwave manuscript to Marine Ecology Progress Series in January.",
    ),
    (
        "paper_update",
        "event",
        60,
        "MEPS rejected us in July. Reformatting for Marine Environmental Research — Marcela does the figures, I rewrite the discussion.",
    ),
    (
        "conference_2024",
        "event",
        330,
        "Presented a poster at the Congreso de Ciencias del Mar in Coquimbo, May 2024.",
    ),
    (
        "ocean_network",
        "fact",
        300,
        "Member of REDE Kelp, the Brazilian-Chilean kelp network; online meetings every two months, in Portuguese.",
    ),
    (
        "volunteer_talk",
        "event",
        80,
        "Gave a talk on kelp forests at Mateo's school in June; the biology teacher wants another next year.",
    ),
    (
        "municipalidad",
        "fact",
        380,
        "Small contract with the Municipalidad de Valparaíso: water sampling at Las Torpederas and Caleta El Membrillo on the first Monday of each month.",
    ),
    (
        "accountant",
        "fact",
        800,
        "Accountant: Jorge Pizarro in Viña — old-school, wants paper receipts, 85.000 CLP a month.",
    ),
    (
        "bookkeeping",
        "decision",
        90,
        "Bookkeeping moved to ContaFácil (online), 45.000 CLP monthly; they file the F29 and the annual tax return.",
    ),
    ("retention_rate", "note", 240, "Boleta retention for 2025 is 14.5% — factor it into quotes."),
    (
        "boat_charter",
        "fact",
        500,
        "Boat at Quintay: Don Lucho's Santa Rosa, 150.000 CLP a day including fuel; book a week ahead on WhatsApp.",
    ),
    ("dive_computer", "fact", 600, "Dive computer: Shearwater Peregrine, bought in 2021."),
    (
        "las_docas_july",
        "event",
        45,
        "Lost my computer on the Las Docas dive in July; using Pipe's spare Suunto Zoop until the insurance pays out.",
    ),
    ("drysuit", "fact", 900, "Drysuit: Santi E.Lite, size M, with dry gloves; bought in 2021."),
    (
        "drysuit_repair",
        "event",
        14,
        "Drysuit neck seal tore — left at Buceo Pacífico in Viña for a new one; ready around 10 September, 65.000 CLP.",
    ),
    ("wetsuit", "fact", 500, "7 mm Mares wetsuit for summer dives, size 3."),
    (
        "camera",
        "fact",
        400,
        "Underwater camera: Olympus TG-7 in the PT-059 housing, with two Sea&Sea strobes.",
    ),
    (
        "dive_sites",
        "preference",
        600,
        "Favourite dive sites: Las Docas for fish life, Quintay for kelp, Zapallar for visibility.",
    ),
    ("dive_log_summary", "note", 100, "Logged dives so far: 612, of which 48 this year."),
    (
        "drone",
        "fact",
        400,
        "DJI Mavic 3 for kelp canopy mapping; registered with the DGAC, my operator licence expires June 2026.",
    ),
    (
        "qgis_course",
        "event",
        180,
        "Doing the online course 'QGIS for marine spatial planning'; two modules left. The certificate helps with the Fundación bids.",
    ),
    ("email", "fact", 900, "Work email: ines.valderrama.bio@gmail.com"),
    (
        "domain",
        "decision",
        100,
        "Set up the company domain — use ines@valderramamarina.cl for everything professional from now on.",
    ),
    (
        "puerto_bid",
        "event",
        60,
        "Bid sent to Puerto San Antonio for the benthic baseline of the new breakwater: 42 field days, decision expected mid-October.",
    ),
    (
        "hobart",
        "event",
        80,
        "Invited to the kelp restoration workshop at IMAS, Hobart, 22–26 September 2025. IMAS pays flights and hotel. Talk on the Quintay pilot, 15 minutes, on the Tuesday.",
    ),
    (
        "imas_email",
        "event",
        8,
        "Organisers moved me to the closing session on Friday 26th — 20 minutes instead of 15.",
    ),
    (
        "hobart_flights",
        "event",
        40,
        "Flights to Tasmania: LATAM SCL–SYD 19 September 11:45, Qantas SYD–HBA 21 September, return 27 September.",
    ),
    (
        "hobart_hotel",
        "note",
        35,
        "Hotel in Hobart: Salamanca Wharf Hotel, 21–27 September, paid by IMAS.",
    ),
    (
        "friday_admin",
        "preference",
        500,
        "Fridays are admin days: invoices and email, no fieldwork, no calls before 9:30.",
    ),
    (
        "field_safety",
        "preference",
        700,
        "Work dives: always file the dive plan with the Capitanía de Puerto and never dive without a surface tender.",
    ),
    (
        "rapa_nui",
        "event",
        160,
        "Fieldwork on Rapa Nui planned for January 2026 with Marcela: algae survey around Hanga Roa.",
    ),
    (
        "conaf_permits",
        "event",
        20,
        "CONAF permits are stuck, so Easter Island is pushed back to April 2026.",
    ),
    (
        "goals_2025",
        "note",
        240,
        "2025 goals: AIDA 3, finish the QGIS course, play the Élégie in public, save for the bow.",
    ),
    # ---------------- money ----------------
    (
        "flat",
        "fact",
        700,
        "Renting a two-bedroom flat on Cerro Concepción (Pasaje Templeman) for 520.000 CLP a month; landlady Señora Gladys.",
    ),
    (
        "moving_day",
        "event",
        170,
        "Got the keys to our house in Playa Ancha (Calle Levarte) on 14 March and moved in that weekend.",
    ),
    (
        "mortgage",
        "fact",
        160,
        "Mortgage with BancoEstado: 20 years, fixed 4.6%, dividend about 17 UF a month, charged on the 5th.",
    ),
    (
        "house_insurance",
        "fact",
        160,
        "House insured through BancoEstado's policy (earthquake included), required by the mortgage.",
    ),
    (
        "bank",
        "fact",
        1000,
        "Everyday account at Banco de Chile; the SpA's business account is at BancoEstado.",
    ),
    (
        "credit_card",
        "fact",
        500,
        "Main credit card: Banco de Chile Visa; the statement closes on the 20th.",
    ),
    (
        "savings_goal",
        "decision",
        220,
        "Putting 150.000 CLP a month into a separate fondo mutuo for a pernambuco cello bow; target 2.5 million, currently around 1.2 million.",
    ),
    (
        "emergency_fund",
        "fact",
        300,
        "Emergency fund: roughly four months of expenses in a conservative Fintual fund.",
    ),
    (
        "tax_refund",
        "event",
        110,
        "Operación Renta 2025: refund of 1.1 million CLP in May, spent on the solar water heater.",
    ),
    (
        "subscriptions",
        "note",
        100,
        "Subscriptions: Spotify Duo with Mateo, iCloud 200 GB, NYT digital. Cancelled Netflix in June.",
    ),
    (
        "monthly_budget",
        "note",
        330,
        "Monthly budget targets: groceries 380.000, fuel 90.000, eating out 80.000 CLP.",
    ),
    (
        "afp",
        "fact",
        1000,
        "Pension: AFP Modelo, fund C; as a freelancer my contributions are collected through the annual tax return.",
    ),
    (
        "orchestra_fee",
        "fact",
        400,
        "Orchestra membership is 15.000 CLP a month, paid to the treasurer, Marta.",
    ),
    # ---------------- travel ----------------
    ("passport", "fact", 500, "Chilean passport expires 11 January 2026."),
    (
        "registro_civil",
        "event",
        14,
        "Picked up my new passport at the Registro Civil on 18 August — valid until 2035.",
    ),
    (
        "aus_visa",
        "event",
        20,
        "Australian visitor visa (subclass 600) granted 12 August, 12 months, multiple entry — issued on the OLD passport number.",
    ),
    ("latam_pass", "fact", 450, "LATAM Pass Gold: free seat selection and an extra checked bag."),
    (
        "seat_pref",
        "preference",
        700,
        "On planes: aisle seat, as far forward as possible, never the last row.",
    ),
    (
        "patagonia_trip",
        "event",
        200,
        "February 2025: W Trek in Torres del Paine with Mateo, five days, refugios booked through Vertice. Mateo loved the French Valley.",
    ),
    (
        "travel_insurance",
        "fact",
        120,
        "Annual travel insurance (Assist Card, via the Banco de Chile card): recreational diving covered to 30 m, asthma declared as pre-existing.",
    ),
    (
        "pet_sitter",
        "fact",
        40,
        "When I travel: Don Hernán feeds Merluza and gives her the pills, Boya stays at Camila's.",
    ),
    # ---------------- music & hobbies ----------------
    (
        "orchestra",
        "fact",
        600,
        "Cello in the Orquesta Comunitaria de Viña del Mar; rehearsals every Wednesday 19:30–22:00 at the Palacio Rioja annex.",
    ),
    (
        "orquesta_update",
        "event",
        25,
        "From August we meet on Tuesdays, 19:00 to 21:30, at Liceo Guillermo Rivera while the old venue is under repair.",
    ),
    (
        "cello_section",
        "fact",
        500,
        "In the orchestra I sit at the fourth desk of the cellos, outside chair.",
    ),
    (
        "season_2025",
        "event",
        110,
        "Named principal for the 2025 season: I lead the section and play the solos in the Dvořák.",
    ),
    (
        "concert",
        "event",
        90,
        "Next concert: 6 December 2025 at the Teatro Municipal de Viña — Dvořák's Eighth Symphony and Elgar's Enigma Variations.",
    ),
    (
        "concert_update",
        "event",
        9,
        "The theatre double-booked, so our performance is now Saturday 13/12.",
    ),
    (
        "cello_instrument",
        "fact",
        1600,
        "My cello is a 1923 Markneukirchen instrument that belonged to my grandfather Aurelio; insured with HDI for 9 million CLP.",
    ),
    ("insurance_hdi", "fact", 400, "HDI policy for the instrument renews every October."),
    ("cello_case", "fact", 700, "Cello case: white BAM Hightech with an AirTag inside."),
    (
        "luthier",
        "fact",
        500,
        "Luthier: Taller Arcos in Barrio Italia, Santiago — Tomás does rehairs and soundpost adjustments.",
    ),
    (
        "bow_rehair",
        "event",
        235,
        "Last bow rehair: 8 January 2025. Usually needed every eight months.",
    ),
    (
        "cello_strings",
        "preference",
        400,
        "Strings: Larsen on A and D, Spirocore tungsten on G and C. Never Jargar again.",
    ),
    (
        "cello_teacher",
        "fact",
        600,
        "Cello lessons with Maestro Ernesto Pinto, Saturdays 11:00 at his house on Cerro Alegre, 35.000 CLP each.",
    ),
    (
        "cello_lessons",
        "event",
        120,
        "Now studying online with Ana Schulz from Leipzig — Mondays 13:00 Chile time, 45 euros — since the old maestro retired.",
    ),
    (
        "recital",
        "event",
        45,
        "Ana's online studio recital: 25 October, 18:00 Chile time, streamed; five minutes per student.",
    ),
    (
        "repertoire",
        "note",
        45,
        "Working on the Prelude from Bach's Suite No. 3 and Fauré's Élégie for the spring recital.",
    ),
    (
        "practice_goal",
        "decision",
        150,
        "Practice goal: 40 minutes every day, wrist warm-up first, stop if the thumb side hurts.",
    ),
    (
        "music_pref",
        "preference",
        800,
        "Love Shostakovich and Dvořák; can't stand Vivaldi's Four Seasons. Heroes: Jacqueline du Pré, Sol Gabetta.",
    ),
    (
        "freediving",
        "fact",
        400,
        "Freediving: AIDA 2 certified (2023), training for AIDA 3. PBs: static 3:40, constant weight 24 m.",
    ),
    (
        "kayak",
        "fact",
        700,
        "Sea kayak: red Prijon Kodiak, kept at the Caleta Portales boathouse for 25.000 CLP a month.",
    ),
    (
        "garage",
        "event",
        150,
        "Brought the Prijon home — it hangs on wall brackets in the new garage, no more boathouse fee.",
    ),
    (
        "kayak_trips",
        "note",
        300,
        "Favourite paddle: Caleta Portales to Playa Las Salinas and back, about two hours.",
    ),
    (
        "book_club",
        "fact",
        500,
        "Book club: first Thursday of the month at Café Vinilo, Cerro Alegre, 20:00; six of us.",
    ),
    (
        "book_club_pick",
        "note",
        40,
        "Book club pick for September: 'Braiding Sweetgrass' by Robin Wall Kimmerer.",
    ),
    (
        "club_update",
        "event",
        6,
        "Change of plan — Soledad won the vote, so we're doing 'La amortajada' by María Luisa Bombal instead.",
    ),
    (
        "portuguese",
        "fact",
        300,
        "Portuguese on italki with Beatriz from Recife, Mondays 20:00; around B1, aiming for B2 for the Brazilian kelp network meetings.",
    ),
    (
        "garden",
        "note",
        150,
        "Terrace at the new house: tomatoes, basil and chard; the drip timer runs at 7:00.",
    ),
    ("running", "fact", 350, "Running three times a week, about 7 km along Avenida Altamirano."),
    ("running_shoes", "note", 200, "Running shoes: Brooks Ghost 15, replace every 700 km."),
    (
        "half_marathon",
        "event",
        120,
        "Signed up for the Valparaíso half marathon, 26 October 2025; bib pickup 24–25 October at Parque Cultural.",
    ),
    ("race_update", "event", 10, "Winter training fell apart, so I switched my entry to the 10K."),
    ("gym", "fact", 800, "Member at Pacific Fitness on Avenida Brasil, 29.990 a month."),
    (
        "training",
        "event",
        100,
        "Quit the gym; bouldering twice a week at Muro Valpo in Barón instead.",
    ),
    (
        "beach_cleanup",
        "fact",
        300,
        "Volunteer with Fundación Mar Limpio beach clean-ups on the last Sunday of the month, usually Las Torpederas.",
    ),
    (
        "sailing_plan",
        "decision",
        30,
        "Joaquín will teach me to sail his Laser this summer; goal is the Capitanía's recreational skipper licence by March.",
    ),
    (
        "bike",
        "fact",
        400,
        "Bicycle: an old blue Trek hybrid, mostly for the flat stretch of Avenida España.",
    ),
    (
        "bike_stolen",
        "event",
        20,
        "Someone stole the bike from outside the Mercado Cardonal last week; filed a police report, not replacing it for now.",
    ),
    (
        "podcast_pref",
        "preference",
        300,
        "Podcasts I like: Radiolab, El Hilo and anything on ocean science; no true crime.",
    ),
    (
        "reading_pref",
        "preference",
        500,
        "Reading: mostly Latin American fiction and nature writing; I dislike self-help.",
    ),
    ("tv_pref", "preference", 300, "TV: documentaries and the occasional Nordic crime series."),
    # ---------------- home ----------------
    (
        "house_details",
        "fact",
        160,
        "The Playa Ancha house: three bedrooms on two floors, bay view, small terrace, garage. Built in the 1950s, so the wiring is old.",
    ),
    ("internet", "fact", 150, "Home internet: Mundo fibre 600 Mb, 23.990 CLP a month."),
    (
        "electricity",
        "fact",
        140,
        "Electricity with Chilquinta, about 38.000 CLP a month; the bill arrives around the 12th.",
    ),
    ("gas", "fact", 140, "Gas: Abastible 15 kg cylinders for the cooker and the backup calefont."),
    (
        "plumber",
        "fact",
        100,
        "Plumber: Maestro Ricardo Ahumada, +56 9 7412 3305 — fixed the kitchen leak in May; reliable and cheap.",
    ),
    (
        "roof_issue",
        "event",
        60,
        "Roof leaks over the back bedroom in heavy rain. Don Segundo quoted 850.000 CLP to replace the zinc sheets; planned for October.",
    ),
    (
        "earthquake_kit",
        "note",
        140,
        "Earthquake/tsunami backpack is in the cupboard under the stairs: water, headlamp, radio, cash, ID copies, a spare inhaler, gluten-free crackers.",
    ),
    (
        "water_heater",
        "event",
        110,
        "Solar water heater installed on the roof in May (1.6 million CLP), gas calefont as backup.",
    ),
    (
        "garbage",
        "fact",
        150,
        "Rubbish collection on our street: Tuesday, Thursday and Saturday nights; recycling point at the Playa Ancha sports centre.",
    ),
    ("cleaner", "fact", 120, "Marisol cleans every other Friday, 35.000 CLP."),
    (
        "furniture",
        "event",
        150,
        "Bought a second-hand oak dining table from a Marketplace seller in Quilpué for 180.000 CLP.",
    ),
    (
        "house_todo",
        "note",
        60,
        "House to-do: rewire the kitchen, paint Mateo's room, fix the garage door.",
    ),
    (
        "bread",
        "fact",
        600,
        "Gluten-free loaves from Celíaco Feliz on Calle Esmeralda — the buckwheat one is the best.",
    ),
    (
        "pan_update",
        "event",
        45,
        "Celíaco Feliz closed in July. Now buying at Sin Trigo in Viña (5 Oriente) on Saturdays.",
    ),
    (
        "restaurant",
        "preference",
        300,
        "Favourite dinner spot: Cocina Puerto on Cerro Alegre — separate gluten-free kitchen, great reineta.",
    ),
    ("phone", "fact", 700, "Phone: iPhone 11 on an Entel prepaid chip."),
    (
        "phone_update",
        "event",
        110,
        "Got a Pixel 8 in May on a WOM postpaid plan, 40 GB for 14.990 a month.",
    ),
    # ---------------- vehicles ----------------
    (
        "car",
        "fact",
        800,
        "Driving a silver 2012 Subaru Forester (manual), 210.000 km, roof rack for the kayak.",
    ),
    (
        "car_update",
        "event",
        140,
        "Sold the Forester in April and bought a dark green 2021 Suzuki Jimny, automatic, 34.000 km.",
    ),
    (
        "car_insurance",
        "fact",
        130,
        "The Jimny is insured with HDI Seguros, full cover, 1.3 UF a month, deductible 5 UF; roadside assistance on 600 600 4334.",
    ),
    (
        "jimny_service",
        "event",
        40,
        "40.000 km service at the Suzuki dealer in Viña, 189.000 CLP, nothing to fix.",
    ),
    (
        "permiso_circulacion",
        "note",
        170,
        "Permiso de circulación paid in March at the Valparaíso municipality, both instalments, 182.000 CLP in total.",
    ),
    ("revision_tecnica", "note", 100, "Revisión técnica due in November (plate ends in 6)."),
    ("license", "fact", 900, "Driving licence class B, renewed 2021, next control 2027."),
    # ---------------- pets ----------------
    (
        "merluza",
        "fact",
        1300,
        "Merluza is my cat: orange tabby female, 12, adopted from a shelter on Cerro Alegre in 2013.",
    ),
    (
        "pets",
        "fact",
        600,
        "The building on Cerro Concepción doesn't allow dogs, so it's just Merluza.",
    ),
    (
        "shelter_july",
        "event",
        55,
        "Adopted Boya from the Playa Ancha shelter in July — black mixed breed, about three years old, terrified of fireworks.",
    ),
    (
        "vet",
        "fact",
        500,
        "Vet: Dr. Claudia Tapia, Clínica Veterinaria Cerro Alegre; Merluza's thyroid check every three months.",
    ),
    (
        "boya_vaccines",
        "event",
        30,
        "Boya had her rabies and octuple shots on 1 August; next booster August 2026; microchip registered.",
    ),
    (
        "boya_training",
        "note",
        25,
        "Boya: recall training with Sergio on Saturdays 9:00 in the park; she's doing well off-lead.",
    ),
    (
        "pet_food",
        "note",
        50,
        "Merluza eats only Hill's y/d wet food (iodine-restricted); Boya gets Bravery adult kibble, 250 g a day.",
    ),
    (
        "merluza_weight",
        "note",
        90,
        "Merluza weighed 3.9 kg at the last vet visit — she's lost 300 g.",
    ),
    # ---------------- preferences about the assistant ----------------
    (
        "pref_language",
        "preference",
        400,
        "Reply in English, but keep Chilean terms like UF, boleta, Isapre, RUT as they are — no translating or explaining them.",
    ),
    (
        "pref_style",
        "preference",
        350,
        "Short answers; bullet points are fine; no emojis; don't start with 'Great question'.",
    ),
    (
        "pref_units",
        "preference",
        600,
        "Metric units, 24-hour clock, dates as dd/mm/yyyy, money in CLP unless I say otherwise.",
    ),
    (
        "pref_email_tone",
        "preference",
        250,
        "Spanish emails: usted with clients and officials, tú with friends and colleagues; sign off 'Saludos cordiales, Inés'.",
    ),
    ("pref_food", "preference", 500, "I hate coriander (cilantro) — leave it out of every recipe."),
    (
        "coffee",
        "preference",
        400,
        "Coffee: cortado with regular milk, no sugar; nothing after 16:00 or I don't sleep.",
    ),
    (
        "health_note_aug",
        "decision",
        20,
        "Cut out caffeine completely in August after palpitations — rooibos or decaf only.",
    ),
    (
        "pref_reminders",
        "preference",
        200,
        "When I ask for plans or reminders, give me a dated checklist.",
    ),
    ("pref_politics", "preference", 300, "Don't bring up politics unless I ask."),
    ("pref_name", "preference", 700, "Call me Inés — not Dr. Valderrama."),
    (
        "pref_calendar",
        "preference",
        200,
        "Calendar is Google Calendar; reminders at 9:00 the day before.",
    ),
]

# more near-duplicates about other people (same topics as the questions)
CORE += [
    ("marcela_birthday", "fact", 500, "Marcela's birthday is 11 September."),
    ("mateo_vaccines", "event", 200, "Mateo's second HPV dose was given at school in April."),
    ("lucia_car", "fact", 500, "Lucía and Andrés drive a white Kia Sorento."),
    ("vale_car", "fact", 75, "Vale sold her car when she moved south; she cycles everywhere now."),
    ("camila_dog", "fact", 400, "Camila has a border collie called Bach."),
    (
        "pablo_flat",
        "fact",
        500,
        "Pablo and Hannah rent a terrace house in Brunswick with a lemon tree.",
    ),
    ("mum_allergies", "fact", 700, "Mamá is allergic to sulfa drugs."),
    (
        "lucia_allergy",
        "fact",
        600,
        "Lucía is allergic to bee stings and keeps an antihistamine in her bag.",
    ),
    ("andres_birthday", "fact", 600, "Andrés's birthday: 14 January."),
    (
        "mateo_passport",
        "event",
        60,
        "Mateo's passport is valid until 2029; he needs a notarised travel permit signed by Rodrigo for any trip abroad.",
    ),
    (
        "rodrigo_birthday",
        "fact",
        700,
        "Rodrigo's birthday is 8 May; Mateo always wants help with a present.",
    ),
    (
        "marcela_kids",
        "fact",
        500,
        "Marcela has two teenagers; her son plays in the same football league as Mateo.",
    ),
    (
        "conductor",
        "fact",
        500,
        "Our conductor is Maestro Hugo Vidal; strict about being seated 15 minutes early.",
    ),
    ("rocio_transport", "fact", 300, "Rocío doesn't drive; she takes the trolleybus everywhere."),
    (
        "antonia_school",
        "fact",
        150,
        "Antonia is in 4° básico in Quilpué; she lives with her mum during the week.",
    ),
    ("mum_friend", "fact", 700, "Mamá's oldest friend, Tía Gloria, phones her every Sunday."),
    ("pipe_partner", "fact", 400, "Pipe's wife Daniela runs a dive shop in Algarrobo."),
    (
        "lucia_new_year",
        "event",
        20,
        "Lucía wants everyone in Pucón for New Year; nothing booked yet.",
    ),
    ("pablo_visit", "event", 270, "Pablo and Hannah visited Chile for two weeks in December 2024."),
    (
        "hobart_memories",
        "note",
        900,
        "Lived in Sandy Bay during the MSc; best pho was at a place on Elizabeth Street.",
    ),
    ("mateo_music", "fact", 100, "Mateo plays bass in a school band called Marejada."),
    ("mama_hearing", "fact", 200, "Mamá uses a hearing aid in the left ear; batteries size 312."),
    ("joaquin_home", "fact", 200, "Joaquín lives above his workshop at Caleta Portales."),
    ("quartet_fee", "note", 150, "Quartet gigs pay 60.000 CLP per player."),
    (
        "marcela_allergy",
        "fact",
        400,
        "Marcela is allergic to latex — bring nitrile gloves on field days with her.",
    ),
    (
        "neighbour_wife",
        "fact",
        130,
        "Don Hernán's wife, Señora Olga, makes sopaipillas whenever it rains.",
    ),
    (
        "uv_parking",
        "note",
        500,
        "Parking at Montemar fills up by 8:15; the sticker is on the windscreen.",
    ),
    ("tide_app", "preference", 300, "I use the SHOA tide tables, not the generic apps."),
    (
        "camila_update",
        "event",
        35,
        "Camila left the pharmacy and is retraining as a music therapist.",
    ),
    (
        "joaquin_van",
        "event",
        30,
        "Joaquín sold the Honda and bought a second-hand Fiat Fiorino van for the workshop.",
    ),
]

# ---------------------------------------------------------------------------
# Questions: (turns, answers[, stale]).  turns = user messages, oldest first.
# ---------------------------------------------------------------------------

# "drift": the last turn is the question; the earlier turns are UNRELATED
# (small talk / other tasks), often on topics that DO have memories, so a
# selector that weighs every turn equally gets pulled the wrong way.
DRIFT = [
    (
        [
            "can you help me tighten this paragraph for the Fundación report? it feels wordy",
            "thanks. what's a good synonym for 'diligent'?",
            "what house insurance do I have?",
        ],
        ["house_insurance"],
    ),
    (
        [
            "what's the difference between 'affect' and 'effect'?",
            "ok, and is it 'data is' or 'data are' in a scientific paper?",
            "which underwater camera setup do I use?",
        ],
        ["camera"],
    ),
    (
        [
            "write me a haiku about fog over the harbour",
            "make it less gloomy",
            "when's my next tetanus shot due, roughly?",
        ],
        ["vaccines"],
    ),
    (
        [
            "how do I convert UF to pesos in a spreadsheet formula?",
            "and how do I round the result to thousands?",
            "who's my endocrinologist and which days does he see patients?",
        ],
        ["endocrinologist"],
    ),
    (
        [
            "can you explain Hill numbers in diversity stats?",
            "ok, and Shannon vs Simpson — which is more sensitive to rare species?",
            "when is Mamá's birthday?",
        ],
        ["mum_birthday"],
    ),
    (
        [
            "suggest a name for a spreadsheet tab with urchin counts",
            "haha ok. what's the plural of 'octopus'?",
            "what is Camila allergic to?",
        ],
        ["camila_allergy"],
    ),
    (
        [
            "translate 'the sampling was postponed due to swell' into Spanish",
            "more formal please",
            "how much pocket money does Mateo get?",
        ],
        ["mateo_allowance"],
    ),
    (
        [
            "what's a polite way to decline a meeting invitation?",
            "shorter",
            "remind me how to get to the Quemchi farm",
        ],
        ["salmones_farm"],
    ),
    (
        [
            "give me a 5-minute stretching routine for the morning",
            "anything for the neck specifically?",
            "what car does Rodrigo drive?",
        ],
        ["rodrigo_car"],
    ),
    (
        ["how long do I boil quinoa?", "and the water ratio?", "when is Lucía's birthday?"],
        ["lucia_birthday"],
    ),
    (
        [
            "help me name a playlist of sea shanties",
            "something in Spanish",
            "when's Rocío's birthday?",
        ],
        ["rocio_bday"],
    ),
    (
        [
            "what's the weather usually like in Valparaíso in October?",
            "is it windy?",
            "what does Hannah do for a living?",
        ],
        ["hannah_job"],
    ),
    (
        [
            "give me three icebreaker questions for a first lecture",
            "funnier",
            "what's my LATAM Pass status and what does it give me?",
        ],
        ["latam_pass"],
    ),
    (
        ["where does the word 'benthic' come from?", "and 'pelagic'?", "which dentist do I go to?"],
        ["dentist"],
    ),
    (
        [
            "check this sentence: 'the kelp have been recovered faster than expected'",
            "why is 'have been recovered' wrong?",
            "who do I train freediving with?",
        ],
        ["freediving_buddy"],
    ),
    (
        [
            "how many grams in an ounce?",
            "and in a cup of rice flour?",
            "who's the luthier I use in Santiago?",
        ],
        ["luthier"],
    ),
    (
        [
            "recommend a podcast episode about deep-sea mining",
            "something in Spanish?",
            "when did I last get my bow rehaired?",
        ],
        ["bow_rehair"],
    ),
    (
        [
            "how do I make a pivot table in Google Sheets?",
            "how do I filter it by month?",
            "which strings do I use on my cello?",
        ],
        ["cello_strings"],
    ),
    (
        [
            "draft a two-line birthday message for a colleague",
            "less cheesy",
            "what are my freediving personal bests?",
        ],
        ["freediving"],
    ),
    (
        [
            "what's the capital of New Zealand?",
            "and roughly how many people live there?",
            "when and where does the book club meet?",
        ],
        ["book_club"],
    ),
    (
        [
            "explain the difference between a fondo mutuo and a depósito a plazo",
            "which is more liquid?",
            "which kelp network am I a member of?",
        ],
        ["ocean_network"],
    ),
    (
        [
            "suggest a caption for a photo of a sea lion on the pier",
            "in Spanish too",
            "which nights is the rubbish collected on our street?",
        ],
        ["garbage"],
    ),
    (
        [
            "help me write a complaint to an airline about a lost bag",
            "make it firmer",
            "who's the plumber that fixed the kitchen leak?",
        ],
        ["plumber"],
    ),
    (
        [
            "what are good houseplants for low light?",
            "are any of them toxic to cats?",
            "who did I buy the dining table from, and for how much?",
        ],
        ["furniture"],
    ),
    (
        [
            "tell me a joke about statisticians",
            "another one",
            "how much is the electricity bill usually?",
        ],
        ["electricity"],
    ),
    (
        [
            "how do I unstick a wetsuit zip?",
            "what lubricant should I use?",
            "who cleans the house and how often?",
        ],
        ["cleaner"],
    ),
    (
        [
            "what's the formula for the area of an ellipse?",
            "thanks",
            "when was the Jimny last serviced and what did it cost?",
        ],
        ["jimny_service"],
    ),
    (
        [
            "make me a gluten-free grocery list for tacos",
            "add something for dessert",
            "when's my next driving licence control?",
        ],
        ["license"],
    ),
    (
        [
            "how do I say 'tide pool' in Portuguese?",
            "and 'sea urchin'?",
            "who's training Boya and when?",
        ],
        ["boya_training"],
    ),
    (
        [
            "summarise the plot of Moby Dick in three lines",
            "now as a limerick",
            "how much did Merluza weigh at her last check-up?",
        ],
        ["merluza_weight"],
    ),
    (
        [
            "write a short thank-you note to my neighbour for the lemons",
            "sign it from me and Mateo",
            "what's my vet's name?",
        ],
        ["vet"],
    ),
    (
        [
            "explain compound interest simply",
            "with an example in pesos",
            "when does my credit card statement close?",
        ],
        ["credit_card"],
    ),
    (
        [
            "recommend a novel set in Chile",
            "something shorter",
            "how much did I get back from this year's tax return?",
        ],
        ["tax_refund"],
    ),
    (
        [
            "how long is a marathon exactly?",
            "who holds the women's world record?",
            "which subscriptions am I paying for?",
        ],
        ["subscriptions"],
    ),
    (
        [
            "what's the difference between a tortoise and a turtle?",
            "do tortoises hibernate?",
            "how much is the orchestra membership fee?",
        ],
        ["orchestra_fee"],
    ),
    (
        [
            "rewrite this post announcing a beach clean-up so it sounds less corporate",
            "add a line asking people to bring gloves",
            "which are my favourite dive sites?",
        ],
        ["dive_sites"],
    ),
    (
        [
            "how do I get candle wax off a tablecloth?",
            "and red wine?",
            "where did Mateo and I go hiking in February?",
        ],
        ["patagonia_trip"],
    ),
    (
        [
            "what's 15% of 4.8 million?",
            "and 14.5%?",
            "who is Mateo's emergency contact when I'm away?",
        ],
        ["mateo_friend"],
    ),
    (
        [
            "suggest a warm-up game for a choir",
            "for kids?",
            "how did my students rate the Ecología Marina course?",
        ],
        ["students_eval"],
    ),
    (
        [
            "what's the best way to store fresh basil?",
            "can I freeze it?",
            "what online course am I doing for the Fundación bids?",
        ],
        ["qgis_course"],
    ),
    (
        [
            "help me write a birthday card for Joaquín",
            "make it funnier",
            "what does Catalina help me with?",
        ],
        ["catalina_student"],
    ),
    (
        [
            "explain El Niño vs La Niña in two sentences",
            "which phase are we in now?",
            "who is Don Lucho?",
        ],
        ["don_lucho"],
    ),
    (
        [
            "write a limerick about a grumpy cat",
            "now one about a dog who fears thunder",
            "where did I do my undergraduate degree?",
        ],
        ["education"],
    ),
    (
        [
            "proofread: 'Their going to the concert on Saturday'",
            "thanks",
            "what's my rule for work dives?",
        ],
        ["field_safety"],
    ),
    (
        [
            "how do I descale a kettle?",
            "with vinegar?",
            "did the Fundación pay the June instalment on time?",
        ],
        ["invoice_fundacion"],
    ),
    (["suggest a name for a sailboat", "a Chilean one", "what's my shoe size?"], ["shoe_size"]),
    (
        [
            "how many calories are in an avocado?",
            "and in a cup of cooked rice?",
            "when was my first date with Joaquín?",
        ],
        ["joaquin_anniv"],
    ),
    (
        [
            "what's the best way to learn vocabulary with flashcards?",
            "any spaced-repetition apps you'd suggest?",
            "what did I decide about working for the salmon company?",
        ],
        ["decision_salmon"],
    ),
    (
        [
            "can you recommend a good stretching app?",
            "is yoga or pilates better for a stiff back?",
            "what's our neighbour's dog called?",
        ],
        ["capitan"],
    ),
    (
        [
            "how do I write a cover letter for a grant?",
            "shorter please",
            "what paperwork does Mateo need to travel abroad?",
        ],
        ["mateo_passport"],
    ),
]

# "followup": drift-like, but an EARLIER related turn is needed to resolve the
# last one ("and what about ...?").
FOLLOWUP = [
    (
        [
            "tell me about Pablo's wedding plans",
            "what's a nicer word than 'heartfelt' for a toast?",
            "and what am I supposed to wear to it?",
        ],
        ["hannah_message"],
    ),
    (
        [
            "what's the status of the Quintay kelp pilot?",
            "unrelated: how do I export a QGIS layer as KML?",
            "and when are we next out there?",
        ],
        ["survey_sept"],
    ),
    (
        [
            "when is Camila's wedding again?",
            "by the way, what's a good present for a couple who has everything?",
            "what are we playing at the ceremony?",
        ],
        ["note_quartet"],
    ),
    (
        [
            "remind me what I know about Boya",
            "fun question: suggest a name for a dog-walking business",
            "when does she need her next shots?",
        ],
        ["boya_vaccines"],
    ),
    (
        [
            "what's the plan for Mateo's exchange?",
            "how do you say 'host family' in German?",
            "and when is the money due?",
        ],
        ["mateo_exchange"],
    ),
    (
        [
            "remind me about Vale's visit",
            "also, quick recipe for lentil soup?",
            "what can't she eat again?",
        ],
        ["valentina_diet"],
    ),
    (
        [
            "what did the roofer say about the leak?",
            "how do I get mould off a bathroom ceiling?",
            "and when is he planning to do the work?",
        ],
        ["roof_issue"],
    ),
    (
        [
            "when is the Hobart workshop?",
            "what's the time difference between Chile and Tasmania?",
            "where am I staying?",
        ],
        ["hobart_hotel"],
    ),
    (
        [
            "who is Benjamín again?",
            "what's a good review paper on urchin barrens?",
            "how often do we meet, and at what time?",
        ],
        ["benjamin_student"],
    ),
    (
        [
            "what do I know about Joaquín's daughter?",
            "suggest a fun afternoon activity for a 9-year-old in Valparaíso",
            "anything to watch out for with snacks?",
        ],
        ["antonia"],
    ),
    (
        [
            "how's Mamá doing, health-wise?",
            "how do I set up a shared Google calendar with my siblings?",
            "what pills is she on?",
        ],
        ["mama_pills"],
    ),
    (
        [
            "what does Pipe drive?",
            "unrelated: roughly what mileage does a Hilux get?",
            "how much does he charge me when we use it?",
        ],
        ["felipe_car"],
    ),
    (
        [
            "what's the deal with the Salmones invoice?",
            "can you give me a generic polite reminder template?",
            "who should I send it to over there?",
        ],
        ["client_salmones"],
    ),
    (
        [
            "tell me about my cello",
            "what's the ideal humidity for old wooden instruments?",
            "and how much is it insured for?",
        ],
        ["cello_instrument"],
    ),
    (
        [
            "how's Lucía's family these days?",
            "give me a gift idea for six-year-olds",
            "when is the twins' birthday?",
        ],
        ["twins_birthday"],
    ),
    (
        [
            "remind me what the Fundación report needs to include",
            "what chart works best for survival over time?",
            "when is it due?",
        ],
        ["fundacion_report"],
    ),
    (
        [
            "what's happening with the Puerto San Antonio bid?",
            "if it's 42 days, how many per month over a year?",
            "when do they decide?",
        ],
        ["puerto_bid"],
    ),
    (
        [
            "what do I know about Helen Marsh?",
            "what's a nice Chilean gift for an academic?",
            "any chance I'll see her at her institute soon?",
        ],
        ["helen_marsh", "hobart"],
    ),
    (
        [
            "when is Pablo's wedding?",
            "what's the weather like in the Yarra Valley in November?",
            "and when do I fly out?",
        ],
        ["wedding_flights"],
    ),
]

# "multi": needs 2-4 entries.
MULTI = [
    (
        ["I fly to Hobart in a few weeks. What do I need to pack given my health stuff?"],
        ["hobart", "meds_update_nov", "inhaler", "diagnosis_2022"],
    ),
    (
        [
            "Joaquín is staying over this weekend — anything about the house I should sort out first?"
        ],
        ["joaquin_health", "merluza"],
    ),
    (
        ["Vale is coming to stay next month; plan a dinner menu we can both eat."],
        ["valentina_trip", "valentina_diet", "diagnosis_2022", "pref_food"],
    ),
    (
        ["Do I have all my own dive gear ready for the next Quintay survey?"],
        ["survey_sept", "drysuit_repair", "las_docas_july"],
    ),
    (
        [
            "can you explain what an ETA is for flights?",
            "ok. is my Australian visa paperwork actually in order?",
        ],
        ["aus_visa", "registro_civil"],
    ),
    (
        ["If I present on the last day in Hobart, can I still make my flight home?"],
        ["imas_email", "hobart_flights"],
    ),
    (["How much do the house loan and the internet cost me each month?"], ["mortgage", "internet"]),
    (
        ["good morning!", "It's the first Monday of the month — what's on my plate today?"],
        ["municipalidad", "cello_lessons", "portuguese"],
    ),
    (
        ["Pipe and I want to do a 20 m dive on Saturday — is that OK for both of us medically?"],
        ["pipe_2024", "dive_medical", "inhaler"],
    ),
    (
        [
            "Mateo's away in Hamburg early next year — which of his regular appointments should I cancel for that stretch?"
        ],
        ["mateo_exchange", "mateo_braces", "mateo_football"],
    ),
    (
        ["Write a reminder email to the salmon company about the unpaid boleta."],
        ["client_salmones", "boleta_231", "pref_email_tone"],
    ),
    (
        [
            "what's a good subject line for a progress report?",
            "Draft an email to the Fundación's new programme officer sending the interim report.",
        ],
        ["fundacion_update", "fundacion_report", "pref_email_tone"],
    ),
    (
        ["What should I cook for Mateo and me on Sunday?"],
        ["mateo_news", "diagnosis_2022", "pref_food"],
    ),
    (
        [
            "Antonia is coming for lunch with Joaquín — any food to keep off the table, and should I shut the cat in the bedroom?"
        ],
        ["antonia", "joaquin_health"],
    ),
    (
        [
            "I have the Quintay survey and then Tasmania — how many days do I have in between to finish the Fundación report?"
        ],
        ["survey_sept", "hobart_flights", "fundacion_report"],
    ),
    (
        [
            "Estimate what the next Quintay survey costs me for the boat and Pipe's truck if we drive 240 km in total."
        ],
        ["boat_charter", "felipe_car", "survey_sept"],
    ),
    (
        ["Besides flights, what do I still need to prepare for Pablo's wedding?"],
        ["hannah_message", "wedding_gift", "idea_toast"],
    ),
    (
        ["Does my travel insurance cover a diving accident abroad, or do I rely on DAN?"],
        ["travel_insurance", "dan_membership"],
    ),
    (["How old will Mateo be during his exchange in Germany?"], ["mateo", "mateo_exchange"]),
    (
        ["Can I keep my Monday cello class while I'm in Hobart? What time would it be there?"],
        ["cello_lessons", "hobart"],
    ),
    (
        ["How many weeks apart are Pablo's wedding and Camila's wedding?"],
        ["pablo_wedding", "camila_wedding"],
    ),
    (
        [
            "Mateo's exchange is in January and February — does it clash with anything I have planned?"
        ],
        ["mateo_exchange", "camila_wedding", "conaf_permits"],
    ),
    (
        [
            "I'm getting a wisdom tooth out next week — who's doing it, and is there any medicine I should warn them about?"
        ],
        ["dentist", "allergies"],
    ),
    (
        ["Write a short speaker bio for the Hobart workshop programme."],
        ["work_profile", "education"],
    ),
    (
        ["Is anything missing from my earthquake backpack given the pills I take every day?"],
        ["earthquake_kit", "meds_update_nov"],
    ),
    (
        ["How much do I net for the two-day Quintay survey after the boleta retention?"],
        ["pricing", "retention_rate", "survey_sept"],
    ),
    (
        ["I want to invite Marcela and Pipe to our concert — when is it and what are we playing?"],
        ["concert_update", "concert"],
    ),
    (
        ["Where should I take Vale for dinner when she visits?"],
        ["valentina_trip", "valentina_diet", "restaurant"],
    ),
    (
        ["What does the Jimny cost me per month between insurance and fuel?"],
        ["car_insurance", "monthly_budget"],
    ),
    (
        ["Which contracts are running right now, and who are my contacts?"],
        ["client_salmones", "fundacion", "fundacion_update", "municipalidad"],
    ),
    (
        ["If the Puerto San Antonio bid comes through at my current rate, what's it worth?"],
        ["puerto_bid", "pricing"],
    ),
    (
        ["Give me a practice plan for this week that won't aggravate my wrist."],
        ["practice_goal", "repertoire", "physio_aug"],
    ),
    (
        ["Which weekday evenings are already taken by music and language classes?"],
        ["orquesta_update", "portuguese"],
    ),
    (
        ["Summarise Merluza's health care for me: meds, food and check-ups."],
        ["merluza_meds", "pet_food", "vet"],
    ),
    (
        [
            "While I'm at Pablo's wedding, where do the animals go, and is Boya's vaccination still valid?"
        ],
        ["pet_sitter", "boya_vaccines"],
    ),
    (
        [
            "Help me prep for my meeting with Benjamín — remind me of his project and where the pilot stands."
        ],
        ["benjamin_student", "kelp_pilot_status"],
    ),
    (
        ["Can I get an aisle seat for free on the Melbourne flight?"],
        ["latam_pass", "seat_pref", "wedding_flights"],
    ),
    (["Compare what I pay for my phone and my internet."], ["phone_update", "internet"]),
    (
        ["Does the new rehearsal night clash with driving Mateo to football?"],
        ["orquesta_update", "mateo_football"],
    ),
    (
        ["Text Rocío that I'll pick her up for rehearsal tomorrow, and say what time."],
        ["carpool", "orquesta_update"],
    ),
    (
        ["If I end up seeing a doctor in Hobart, what medical facts should I tell them?"],
        ["allergies", "meds_update_nov", "inhaler", "diagnosis_2022"],
    ),
    (
        [
            "Can I afford the roof repair and Mateo's exchange deposit this month without touching the emergency money?"
        ],
        ["roof_issue", "mateo_exchange", "savings_goal", "emergency_fund"],
    ),
    (["Which of my friends play in the orchestra with me?"], ["camila", "rocio"]),
    (
        ["Summarise Mamá's situation for her neurologist appointment."],
        ["mum", "mama_pills", "mama_update", "mum_doctor"],
    ),
    (
        [
            "I'm planning a weekend with my sister's family — remind me who's who so I can bring presents for everyone, the dog included."
        ],
        ["lucia", "lucia_dog", "twins_gifts"],
    ),
    (
        ["Lucía's family is coming for dinner — what do I need to keep in mind for the menu?"],
        ["andres_diabetes", "diagnosis_2022"],
    ),
    (["Text Marcela the latest on our Easter Island plan."], ["rapa_nui", "conaf_permits"]),
    (
        ["My bow's probably due for a rehair — plan a Santiago day where I also visit Mamá."],
        ["bow_rehair", "luthier", "mama_update"],
    ),
    (
        [
            "Write a note for Don Hernán about looking after Merluza while I'm in Tasmania, with her dose and my dates."
        ],
        ["pet_sitter", "merluza_meds", "hobart_flights"],
    ),
    (
        ["Once the salmon contract ends, which consulting clients will I have left?"],
        ["decision_salmon", "fundacion", "municipalidad"],
    ),
    (
        ["Draft a message to Rodrigo about the costs coming up for Mateo."],
        ["mateo_braces", "mateo_exchange"],
    ),
    (
        ["Which dates am I out of the country in the next three months?"],
        ["hobart_flights", "wedding_flights"],
    ),
    (
        ["How many weeks do I have between getting back from Tasmania and my October race?"],
        ["hobart_flights", "half_marathon"],
    ),
    (
        ["Build me a weekly schedule with orchestra, Portuguese, my cello lesson and climbing."],
        ["orquesta_update", "portuguese", "cello_lessons", "training"],
    ),
    (
        ["How much have I spent or been quoted on house works this year?"],
        ["water_heater", "roof_issue"],
    ),
    (
        ["I want to take the drone to Easter Island — any paperwork problem?"],
        ["drone", "conaf_permits"],
    ),
    (["What does Mateo's weekday schedule look like?"], ["mateo_school", "mateo_football"]),
    (
        [
            "For the AIDA 3 course form: which certification do I hold and when was my last dive medical?"
        ],
        ["freediving", "dive_medical"],
    ),
    (
        ["Lucía asked how much the honeymoon gift is and when the wedding is — remind me."],
        ["wedding_gift", "pablo_wedding"],
    ),
    (
        ["What's my monthly outlay for my share of Mamá's residence plus my therapy sessions?"],
        ["los_almendros", "therapist"],
    ),
    (
        [
            "Before the Hobart talk: what's the latest Quintay data I should present, and how long do I have?"
        ],
        ["kelp_pilot_status", "imas_email"],
    ),
    (
        ["What's Pipe's situation as a diver — qualifications and current limits?"],
        ["felipe_cert", "pipe_2024"],
    ),
    (
        ["How does what I pay for housing now compare with when I was renting?"],
        ["mortgage", "flat"],
    ),
    (["How has my cholesterol changed since last year?"], ["cholesterol", "lab_results_aug"]),
    (
        [
            "Mateo and Antonia are both coming to the Dieciocho asado — what food rules do I need for the kids?"
        ],
        ["mateo_news", "antonia"],
    ),
    (
        [
            "Get the Jimny sorted for the coming months: when's the inspection, and who do I call if it breaks down?"
        ],
        ["revision_tecnica", "car_insurance"],
    ),
    (
        ["What do I teach at UV, and when does my thesis student meet me?"],
        ["uv_teaching", "benjamin_student"],
    ),
    (
        ["Vale's birthday — when is it, and which city do I post the present to?"],
        ["valentina_bday", "vale_news"],
    ),
    (
        ["What do I need to sort out before Mateo goes to Hamburg — documents and money?"],
        ["mateo_exchange", "mateo_passport"],
    ),
]

# "update": the fact changed; both versions are stored under different keys.
# answers = [newest], stale = older versions (show after the newer one or not at all).
UPDATE = [
    (
        ["how many micrograms of levothyroxine am I taking these days?"],
        ["meds_update_nov"],
        ["thyroid_med"],
    ),
    (["am I allowed to take the kayak out yet?"], ["physio_aug"], ["left_wrist"]),
    (["which health insurance am I on?"], ["health_plan"], ["isapre"]),
    (["remind me how the custody schedule with Rodrigo works"], ["mediation_march"], ["custody"]),
    (["does Mateo still eat meat?"], ["mateo_news"], ["mateo_food"]),
    (["what does Mateo want to study after school?"], ["mateo_update"], ["mateo_future"]),
    (["where is Mamá living at the moment?"], ["mama_update"], ["mama_living"]),
    (
        ["how much does each of us siblings pay for Mamá's care per month?"],
        ["los_almendros"],
        ["rosa"],
    ),
    (["where does Lucía work?"], ["lucia_update"], ["lucia"]),
    (
        [
            "can you help me plan a dinner party?",
            "actually never mind. my cousin asked whether I'm dating anyone — what's the answer?",
        ],
        ["joaquin"],
        ["dating"],
    ),
    (["what city does Vale live in now?"], ["vale_news"], ["valentina"]),
    (["who do I drive to orchestra these days?"], ["carpool"], ["rehearsal_rides"]),
    (
        ["what's a good lock brand for a front door?", "who else has a copy of my house key?"],
        ["neighbour"],
        ["spare_key"],
    ),
    (["what's my current field day rate?"], ["pricing"], ["rate_2024", "day_rate"]),
    (["who's my contact at Fundación Mar Adentro?"], ["fundacion_update"], ["fundacion"]),
    (["which journal are we sending the heatwave paper to?"], ["paper_update"], ["paper"]),
    (["who handles my taxes?"], ["bookkeeping"], ["accountant"]),
    (
        [
            "how do I log a dive in a spreadsheet neatly?",
            "which dive computer am I using right now?",
        ],
        ["las_docas_july"],
        ["dive_computer"],
    ),
    (["what email address should I give the Hobart organisers?"], ["domain"], ["email"]),
    (["when is my talk in Hobart?"], ["imas_email"], ["hobart"]),
    (["when is the Easter Island fieldwork happening?"], ["conaf_permits"], ["rapa_nui"]),
    (["what's my home address?"], ["moving_day"], ["flat"]),
    (["when does my passport expire?"], ["registro_civil"], ["passport"]),
    (
        [
            "what are some good warm-up exercises for cellists?",
            "nice. what night is orchestra rehearsal?",
        ],
        ["orquesta_update"],
        ["orchestra"],
    ),
    (["what's my position in the cello section?"], ["season_2025"], ["cello_section"]),
    (["when is our orchestra concert?"], ["concert_update"], ["concert"]),
    (["who's my cello teacher?"], ["cello_lessons"], ["cello_teacher"]),
    (["where's my kayak kept?"], ["garage"], ["kayak"]),
    (
        [
            "recommend a good bookshop in Valparaíso",
            "what are we reading for book club this month?",
        ],
        ["club_update"],
        ["book_club_pick"],
    ),
    (["which race distance am I doing in October?"], ["race_update"], ["half_marathon"]),
    (["where do I work out now?"], ["training"], ["gym"]),
    (
        [
            "what's a good playlist for a long drive?",
            "something with Chilean bands",
            "what car am I driving these days? I need it for a parking permit form",
        ],
        ["car_update"],
        ["car"],
    ),
    (["do I have a dog?"], ["shelter_july"], ["pets"]),
    (["which mobile carrier am I with?"], ["phone_update"], ["phone"]),
    (["I'm at the café — order me my usual drink"], ["health_note_aug"], ["coffee"]),
    (["where do I buy my bread?"], ["pan_update"], ["bread"]),
    (["is my cholesterol still high?"], ["lab_results_aug"], ["cholesterol"]),
    (["what does Lucía's husband do for work now?"], ["andres_update"], ["andres"]),
    (["what's Pablo doing for work these days?"], ["pablo_update"], ["pablo"]),
    (["do I still have a bicycle?"], ["bike_stolen"], ["bike"]),
    (["what does Camila do for work?"], ["camila_update"], ["camila"]),
    (["what is Joaquín getting around in these days?"], ["joaquin_van"], ["joaquin_bike"]),
]

# "paraphrase": shares almost no words with the answer; needs one step of inference.
PARAPHRASE = [
    (
        ["Mateo wants to bake me a cake for my birthday — what should he keep in mind?"],
        ["diagnosis_2022"],
    ),
    (
        [
            "The clinic offered me a common antibiotic after the extraction — anything I should tell them?"
        ],
        ["allergies"],
    ),
    (["If I ever need a transfusion, what should the hospital know?"], ["blood_type"]),
    (
        [
            "About to sprint up the stairs to Cerro Alegre with the orchestra lot — anything I should do first?"
        ],
        ["inhaler"],
    ),
    (
        [
            "A fisherman at the caleta asked who could fix up his old wooden lancha — who do I point him to?"
        ],
        ["joaquin"],
    ),
    (["The fonda is doing empanadas for the Dieciocho — can I have one?"], ["diagnosis_2022"]),
    (
        ["There'll be fireworks over the hills at New Year — what should I prepare at home?"],
        ["shelter_july"],
    ),
    (
        ["If the sirens go off after a big shake at night, what do I grab and from where?"],
        ["earthquake_kit"],
    ),
    (
        ["Someone asked which piece I'd never want to play at a gig — what do I tell them?"],
        ["music_pref"],
    ),
    (
        ["The waiter asks if I want a sprinkle of green herbs on my ceviche — yes or no?"],
        ["pref_food"],
    ),
    (["What numbers do I give the optician for new lenses?"], ["eyes"]),
    (["Mateo's been sneezing non-stop this week — what does he usually take?"], ["mateo_hayfever"]),
    (["Which friend has a vehicle big enough to haul tanks and gear?"], ["felipe_car"]),
    (
        ["I'm writing to the head of the exchange programme — how formal should I be?"],
        ["pref_email_tone"],
    ),
    (["Is my breathing condition going to stop me working underwater?"], ["dive_medical"]),
    (["What heirloom of Grandpa's do I have covered, and for how much?"], ["cello_instrument"]),
    (["Is it OK to give Merluza those seaweed-flavoured treats?"], ["pet_food"]),
    (["Where does my retirement money go?"], ["afp"]),
]

# "direct": plain lookups.
DIRECT = [
    (["When is Hannah's birthday?"], ["hannah_birthday"]),
    (["What internet plan do I have at home?"], ["internet"]),
    (["When is my birthday?"], ["my_birthday"]),
    (["What languages do I speak?"], ["languages"]),
    (["Where did we scatter Papá's ashes?"], ["dad"]),
    (["What's Rocío's surname?"], ["rocio"]),
    (["How much was the permiso de circulación?"], ["permiso_circulacion"]),
    (["What's growing on my terrace?"], ["garden"]),
]

# ---------------------------------------------------------------------------
# Filler: a simulated two-year life log generated from hand-written
# vocabularies (diary, purchases, reading log, field logs, cello practice,
# runs, messages, notes, monthly spending, swell reports, things watched).
# Items carrying a tag are only used on dates where they are true (e.g. the
# dog only after the adoption), so filler never contradicts the core facts.
# ---------------------------------------------------------------------------


def tag_ok(tag, d):
    if tag is None:
        return True
    return {
        "dog": d < 50,
        "joaquin": d < 225,
        "house": d < 165,
        "moving": 140 < d < 168,
        "flat": d > 175,
        "coffee": d > 35,
        "residence": d < 50,
        "mama_home": d > 60,
        "car_any": True,
    }[tag]


def T(text, tag=None):
    return (text, tag)


WEATHER = [
    "Camanchaca until noon, then sun.",
    "Clear and windy, whitecaps all over the bay.",
    "Drizzle all day.",
    "Hot, 27 °C; the hills smelled of eucalyptus.",
    "Grey and still.",
    "Strong northerly, rain at night.",
    "Cold morning, 6 °C.",
    "Bright winter sun.",
    "Fog horn going most of the night.",
    "Humid and muggy.",
    "Light rain in the afternoon.",
    "Perfect autumn day.",
    "Big swell, spray over the Avenida Perú wall.",
    "Smoky haze from fires inland.",
    "Thunder over the sea — rare here.",
    "Windless evening, the bay like glass.",
    "Showers on and off.",
]

ACTIVITIES = [
    T("Answered emails all morning."),
    T("Rinsed and dried all the dive gear."),
    T("Cooked a big pot of lentils with gluten-free stock."),
    T("Walked down to the port to watch a container ship come in."),
    T("Lunch at the Mercado Cardonal."),
    T("Bought vegetables at the Avenida Argentina feria."),
    T("Spent the afternoon on quadrat photo analysis."),
    T("Read on the sofa with Merluza on my lap."),
    T("Long call with Lucía."),
    T("Video call with Pablo."),
    T("Helped Mateo with a chemistry assignment."),
    T("Sorted receipts for the tax paperwork."),
    T("Watched a documentary about octopuses."),
    T("Tidied the desk and filed papers."),
    T("Took the trolleybus to Avenida Brasil."),
    T("Patched a hole in a mesh collecting bag."),
    T("Made quinoa empanadas — turned out fine."),
    T("Free concert at the Parque Cultural."),
    T("Napped after lunch."),
    T("Wrote two pages of a methods section."),
    T("Checked the tide tables for the weekend."),
    T("Bought flowers for the table."),
    T("Cleaned the windows."),
    T("Long walk along the Muelle Prat."),
    T("Walked up Paseo Gervasoni."),
    T("Errands in Viña."),
    T("Cooked curry for Mateo and his friends."),
    T("Caught up on lecture prep."),
    T("Slow day, mostly reading."),
    T("Drove to Quintay to check the moorings."),
    T("Museo de Historia Natural with Mateo."),
    T("Coffee with Camila after rehearsal.", "coffee"),
    T("Dinner with Joaquín at his place.", "joaquin"),
    T("Joaquín showed me the boat he's restoring.", "joaquin"),
    T("Walked Boya up to the lighthouse.", "dog"),
    T("Boya stole a sock and ran laps of the garden.", "dog"),
    T("Watered the tomatoes on the terrace.", "house"),
    T("Painted the hallway.", "house"),
    T("Unpacked three more boxes.", "moving"),
    T("Still can't find the box with the kitchen knives.", "moving"),
    T("The stairs up to the flat are killing my knees.", "flat"),
    T("Sat with Mamá in the garden of the residence.", "residence"),
    T("Visited Mamá in Ñuñoa; she was in good spirits.", "mama_home"),
    T("Double espresso at Café Vinilo and too much talking.", "coffee"),
    T("Swept the patio and fixed the gate latch.", "house"),
    T("Morning swim at Las Torpederas, water freezing."),
    T("Sewed a button back on my field jacket."),
]

MOODS = [
    "Good day.",
    "Tired.",
    "Felt productive.",
    "A bit low today.",
    "Great day.",
    "Restless evening.",
    "Slept early.",
    "Grateful for small things.",
    "",
    "",
    "",
]

PURCHASES = [
    ("replacement fin straps", 15000, 25000, "Buceo Pacífico", None),
    ("AA batteries x12", 5000, 9000, "Sodimac", None),
    ("a cake of Pirastro rosin", 15000, 22000, "a music shop in Viña", None),
    ("a waterproof field notebook", 9000, 14000, "MercadoLibre", None),
    ("gluten-free pasta x4", 8000, 12000, "Jumbo", None),
    ("cat litter, 10 kg", 9000, 13000, "SuperZoo", None),
    ("sunscreen SPF50", 12000, 18000, "Cruz Verde", None),
    ("a 2 TB external drive", 55000, 75000, "PC Factory", None),
    ("a stainless thermos", 20000, 30000, "Falabella", None),
    ("a kitchen scale", 12000, 18000, "Lider", None),
    ("rubber boots", 18000, 25000, "Sodimac", None),
    ("a headlamp", 15000, 30000, "Andesgear", None),
    ("dive slates and pencils", 8000, 12000, "Buceo Pacífico", None),
    ("zip ties and cord", 4000, 8000, "Sodimac", None),
    ("merino socks", 14000, 20000, "Andesgear", None),
    ("a birthday card", 2000, 4000, "Librería Ivens", None),
    ("a phone case", 10000, 15000, "MercadoLibre", None),
    ("spare O-rings for the camera housing", 6000, 10000, "Buceo Pacífico", None),
    ("quinoa, 2 kg", 7000, 10000, "the feria", None),
    ("olive oil, 1 L", 9000, 13000, "Jumbo", None),
    ("a dish rack", 15000, 22000, "Falabella", None),
    ("light bulbs x6", 6000, 9000, "Sodimac", None),
    ("a laptop stand", 20000, 30000, "PC Factory", None),
    ("a rain jacket", 60000, 90000, "Andesgear", None),
    ("a 50 m measuring tape", 25000, 35000, "Sodimac", None),
    ("shampoo and soap", 5000, 9000, "Cruz Verde", None),
    ("three plant pots", 9000, 15000, "Vivero Los Aromos", "house"),
    ("a dog bed", 25000, 35000, "SuperZoo", "dog"),
    ("a reflective dog lead", 9000, 14000, "SuperZoo", "dog"),
    ("curtain rails", 20000, 32000, "Sodimac", "house"),
    ("a wool blanket", 30000, 45000, "Feria de artesanía", None),
    ("a USB-C charger", 12000, 20000, "PC Factory", None),
    ("rice flour, 1 kg", 2500, 4000, "Jumbo", None),
    ("a metronome app subscription", 3000, 5000, "App Store", None),
    ("a sheet-music folder", 6000, 9000, "Librería Ivens", None),
    ("defog gel for the mask", 6000, 9000, "Buceo Pacífico", None),
]

BOOKS = [
    ("The Hidden Life of Trees", "Peter Wohlleben"),
    ("Los detectives salvajes", "Roberto Bolaño"),
    ("The Soul of an Octopus", "Sy Montgomery"),
    ("Other Minds", "Peter Godfrey-Smith"),
    ("La casa de los espíritus", "Isabel Allende"),
    ("Cien años de soledad", "Gabriel García Márquez"),
    ("The Sea Around Us", "Rachel Carson"),
    ("Entangled Life", "Merlin Sheldrake"),
    ("Kafka on the Shore", "Haruki Murakami"),
    ("The Overstory", "Richard Powers"),
    ("Pedro Páramo", "Juan Rulfo"),
    ("Nocturno de Chile", "Roberto Bolaño"),
    ("H is for Hawk", "Helen Macdonald"),
    ("The Log from the Sea of Cortez", "John Steinbeck"),
    ("Spineless", "Juli Berwald"),
    ("The Brilliant Abyss", "Helen Scales"),
    ("Fathoms", "Rebecca Giggs"),
    ("Underland", "Robert Macfarlane"),
    ("Poeta chileno", "Alejandro Zambra"),
    ("Bonsái", "Alejandro Zambra"),
    ("Space Invaders", "Nona Fernández"),
    ("Las malas", "Camila Sosa Villada"),
    ("Nada", "Carmen Laforet"),
    ("Klara and the Sun", "Kazuo Ishiguro"),
    ("Project Hail Mary", "Andy Weir"),
    ("The Old Man and the Sea", "Ernest Hemingway"),
    ("Mrs Dalloway", "Virginia Woolf"),
    ("The Metamorphosis", "Franz Kafka"),
    ("La tregua", "Mario Benedetti"),
    ("Rayuela", "Julio Cortázar"),
    ("Ficciones", "Jorge Luis Borges"),
    ("The Remains of the Day", "Kazuo Ishiguro"),
    ("Pachinko", "Min Jin Lee"),
    ("A Sting in the Tale", "Dave Goulson"),
    ("The Outlaw Ocean", "Ian Urbina"),
    ("Salt", "Mark Kurlansky"),
    ("The Ministry for the Future", "Kim Stanley Robinson"),
    ("Stoner", "John Williams"),
    ("Los recuerdos del porvenir", "Elena Garro"),
    ("Coronación", "José Donoso"),
    ("Desierto sonoro", "Valeria Luiselli"),
    ("Distancia de rescate", "Samanta Schweblin"),
    ("The Cello Suites", "Eric Siblin"),
    ("Musicophilia", "Oliver Sacks"),
    ("This Is Your Brain on Music", "Daniel Levitin"),
    ("El obsceno pájaro de la noche", "José Donoso"),
    ("Mala onda", "Alberto Fuguet"),
    ("Sostiene Pereira", "Antonio Tabucchi"),
    ("Mar Paraguayo", "Wilson Bueno"),
    ("Vidas secas", "Graciliano Ramos"),
    ("The Rings of Saturn", "W. G. Sebald"),
    ("Moby-Dick", "Herman Melville"),
    ("Lanny", "Max Porter"),
    ("The Snow Leopard", "Peter Matthiessen"),
]
BOOK_NOTES = [
    "slow start, great ending",
    "will recommend it to Vale",
    "too long by a third",
    "read it in two evenings",
    "beautiful prose",
    "lent it to Marcela",
    "not for me",
    "re-read after ten years",
    "lots of notes for the lecture",
    "audiobook, good narrator",
    "read it in Portuguese, slowly",
    "the ending made me cry",
]

SITES = {
    "quintay": [
        "transect K%d: urchin counts and kelp stipe density",
        "holdfast measurements on line %d",
        "checked outplant line %d, two clips replaced",
        "photo quadrats along K%d",
    ],
    "las_docas": ["fish census along the wall, section %d", "reef survey, station %d"],
    "montemar": ["intertidal quadrats, station %d", "sediment cores at site %d"],
    "zapallar": [
        "visibility test for the drone flights, point %d",
        "kelp canopy ground-truthing, plot %d",
    ],
    "el_membrillo": ["water samples at %d stations, sent to the lab"],
    "torpederas": ["water samples at %d stations, sent to the lab"],
    "laguna_verde": ["scouting dive for a new kelp site, spot %d"],
    "quemchi": ["benthic grab samples under cage row %d", "ROV check of the seabed near pen %d"],
}
SITE_NAMES = {
    "quintay": "Quintay",
    "las_docas": "Las Docas",
    "montemar": "Montemar",
    "zapallar": "Zapallar",
    "el_membrillo": "Caleta El Membrillo",
    "torpederas": "Las Torpederas",
    "laguna_verde": "Laguna Verde",
    "quemchi": "Quemchi",
}
FIELD_NOTES = [
    "lots of sea lions around",
    "strong surge on the ascent",
    "juvenile kelp recruits spotted",
    "tender: Pipe",
    "cold hands by the end",
    "found a lost anchor, reported it",
    "visibility dropped after 30 min",
    "octopus den under the big boulder again",
    "",
    "boat late, started at 11",
    "jellyfish bloom at the surface",
]

PRACTICE_MATERIAL = [
    "scales and arpeggios in D major",
    "scales in three octaves, C and G",
    "Popper etude no. 11",
    "Duport etude no. 7",
    "Piatti caprice no. 1 (slowly)",
    "Dvořák 8 excerpts, slow movement",
    "Elgar Enigma, variation XII",
    "Bach Suite 3 Prelude with the metronome at 60",
    "Fauré Élégie, shifts in the opening",
    "sight-reading from the orchestra folder",
    "long tones on open strings",
    "thumb-position drills",
    "bow distribution exercises",
    "vibrato exercises",
    "Shostakovich sonata, first movement",
    "spiccato on the D string",
]
PRACTICE_NOTES = [
    "intonation better today",
    "metronome up to 72",
    "recorded myself — bow too fast",
    "felt loose and easy",
    "short session, tired",
    "neighbours complained, ha",
    "new rosin makes a difference",
    "lost focus after 20 min",
    "good session",
    "",
]

ROUTES = [
    "along Avenida Altamirano",
    "Muelle Barón and back",
    "up the Playa Ancha hill",
    "Viña seafront",
    "Caleta Portales to Las Salinas",
    "Avenida España, flat and fast",
    "Parque Cultural loop",
]
RUN_NOTES = [
    "windy",
    "legs heavy",
    "negative split",
    "hot",
    "easy pace",
    "intervals 6x400",
    "ran with Camila",
    "stopped for photos",
    "drizzle",
    "",
]

PEOPLE = [
    ("mateo", "Mateo", None),
    ("vale", "Vale", None),
    ("pablo", "Pablo", None),
    ("lucia", "Lucía", None),
    ("camila", "Camila", None),
    ("pipe", "Pipe", None),
    ("marcela", "Marcela", None),
    ("rodrigo", "Rodrigo", None),
    ("joaquin", "Joaquín", "joaquin"),
    ("rocio", "Rocío", None),
    ("hernan", "Don Hernán", "house"),
]
MSG_CONTENT = [
    "sent a meme about marine biologists",
    "shared a video of a humpback off Quintero",
    "asked for the quinoa salad recipe",
    "sent photos from a weekend away",
    "wanted to know if I'd seen the storm warning",
    "forwarded an article about kelp and carbon",
    "said hi and asked how the week was going",
    "sent a long voice note about nothing in particular",
    "recommended a series",
    "asked to borrow my camping stove",
    "sent a picture of the sunset over the bay",
    "shared a playlist",
    "reminded me to drink water, ha",
    "asked which sunscreen I use",
    "asked if I'd seen the new bridge in Concón",
    "sent a screenshot of a funny headline",
    "asked whether the sea lions were back at the pier",
    "sent a photo of an old family album",
    "wanted a restaurant tip for Santiago",
    "asked for help with a spreadsheet formula",
]

NOTE_PREFIX = ["Idea", "Look up", "Remember", "Try", "Someday", "Question"]
NOTE_BODY = [
    "time-lapse of kelp growth with a cheap camera on a line",
    "urchin culling rules in Chile",
    "to back up the field photos to the external drive",
    "buckwheat pancakes with banana",
    "a zine about Valparaíso's stairways",
    "cooperative for urchin roe with the Quintay fishers",
    "how to clean a cello fingerboard properly",
    "Portuguese words: saudade, cafuné, desenrolar",
    "a lecture comparing kelp loss in California and Chile",
    "chard tart with a rice-flour base",
    "whether the fog horn at Punta Ángeles is automated",
    "a citizen-science app for beach litter",
    "sea-glass collection for the bathroom shelf",
    "a talk on marine heatwaves for the Rotary club",
    "the history of the ascensores",
    "printing the best underwater photos for the hallway",
    "a podcast episode on octopus intelligence",
    "why the sea lions leave the pier in winter",
    "a standing desk",
    "learning to splice rope",
]

WATCHED = [
    ("Blue Planet II, episode 3", "the kelp segment is still the best"),
    ("Chasing Coral", "grim"),
    ("Seaspiracy", "half of it is exaggerated"),
    ("Our Planet: Coastal Seas", "beautiful"),
    ("La Once", "cried a bit"),
    ("El agente topo", "funny and sad"),
    ("Nostalgia de la luz", "rewatch"),
    ("El botón de nácar", "rewatch, with Mateo"),
    ("Tár", "the cellist scenes!"),
    ("Drive My Car", "long but worth it"),
    ("The Banshees of Inisherin", "bleak"),
    ("Roma", "gorgeous"),
    ("Una mujer fantástica", "great"),
    ("Perfect Days", "lovely"),
    ("Borgen, season 1", "addictive"),
    ("My Octopus Teacher", "rewatch"),
    ("The Deep Dark", "odd"),
    ("Mission Blue", "inspiring"),
    ("Secrets of the Whales", "made me want to go whale-watching"),
    ("Shoplifters", "quietly devastating"),
]

SWELL_DIRS = ["SW", "W", "NW", "S"]
SWELL_DECISIONS = [
    "dive cancelled",
    "went anyway, surge at 5 m",
    "good conditions for the transect",
    "shore sampling only",
    "moved the survey a day",
    "perfect, flat in the caleta",
]

MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def money(n):
    return f"{n:,}".replace(",", ".")


def make_filler(rng):
    out = []
    used = set()

    def add(key, typ, d, value, desc=None):
        base = key
        i = 2
        while key in used:
            key = f"{base}_{i}"
            i += 1
        used.add(key)
        out.append({"key": key, "value": value, "days_ago": d, "type": typ, "description": desc})

    def rday(lo=0, hi=730):
        day = rng.randint(lo, hi)
        return day, TODAY - datetime.timedelta(days=day)

    def frac(day):
        return round(day + rng.random() * 0.95, 2)

    def pick(items, day):
        while True:
            text, tag = rng.choice(items)
            if tag_ok(tag, day):
                return text

    # diary (one entry per day)
    for day in sorted(rng.sample(range(1, 731), 190)):
        date = TODAY - datetime.timedelta(days=day)
        acts = [pick(ACTIVITIES, day)]
        if rng.random() < 0.6:
            a2 = pick(ACTIVITIES, day)
            if a2 != acts[0]:
                acts.append(a2)
        text = " ".join([rng.choice(WEATHER)] + acts + [rng.choice(MOODS)]).strip()
        add(
            f"diary_{date:%Y_%m_%d}",
            rng.choice(["event", "note"]),
            frac(day),
            text,
            "diary" if rng.random() < 0.3 else None,
        )

    # purchases
    for n in range(1, 131):
        while True:
            item, lo, hi, shop, tag = rng.choice(PURCHASES)
            day, date = rday(0, 730)
            if tag_ok(tag, day):
                break
        price = rng.randint(lo // 100, hi // 100) * 100
        add(
            f"purchase_{n:03d}",
            "event",
            frac(day),
            f"Bought {item} at {shop}: {money(price)} CLP.",
            "purchase" if rng.random() < 0.25 else None,
        )

    # reading log
    books = BOOKS[:]
    rng.shuffle(books)
    for n, (title, author) in enumerate(books, 1):
        day, date = rday(0, 730)
        add(
            f"reading_log_{n}",
            "note",
            frac(day),
            f"Finished '{title}' by {author} — {rng.randint(2, 5)}/5, {rng.choice(BOOK_NOTES)}.",
        )

    # field logs
    site_keys = list(SITES)
    weights = [30, 18, 14, 8, 10, 10, 6, 8]
    for _ in range(115):
        site = rng.choices(site_keys, weights)[0]
        day, date = rday(3, 730)
        task = rng.choice(SITES[site]) % rng.randint(1, 6)
        if site in ("el_membrillo", "torpederas"):
            text = f"{SITE_NAMES[site]}, {task}."
        else:
            text = (
                f"{SITE_NAMES[site]} — {task}. Max {rng.randint(30, 180) / 10:.1f} m, "
                f"{rng.randint(25, 70)} min, water {rng.randint(11, 15)} °C, vis {rng.randint(2, 10)} m."
            )
        note = rng.choice(FIELD_NOTES)
        if note:
            text += f" {note[0].upper() + note[1:]}."
        add(
            f"field_{date:%Y%m%d}_{site}",
            "event",
            frac(day),
            text,
            "field log" if rng.random() < 0.3 else None,
        )

    # cello practice log
    for day in sorted(rng.sample(range(0, 731), 110)):
        date = TODAY - datetime.timedelta(days=day)
        mats = rng.sample(PRACTICE_MATERIAL, 2)
        note = rng.choice(PRACTICE_NOTES)
        text = f"Cello {rng.choice([20, 25, 30, 40, 45, 60, 75, 90])} min: {mats[0]}; {mats[1]}."
        if note:
            text += f" {note[0].upper() + note[1:]}."
        add(f"practice_{date:%Y_%m_%d}", "event", frac(day), text)

    # runs
    for day in sorted(rng.sample(range(0, 731), 75)):
        date = TODAY - datetime.timedelta(days=day)
        km = rng.randint(40, 140) / 10
        pace = rng.randint(300, 390)  # seconds per km
        total = int(km * pace)
        note = rng.choice(RUN_NOTES)
        text = f"{km:.1f} km {rng.choice(ROUTES)}, {total // 60}:{total % 60:02d}" + (
            f", {note}." if note else "."
        )
        add(f"run_{date:%y%m%d}", "event", frac(day), text)

    # messages
    counters = {}
    for _ in range(105):
        while True:
            slug, name, tag = rng.choice(PEOPLE)
            day, date = rday(0, 730)
            if tag_ok(tag, day):
                break
        counters[slug] = counters.get(slug, 0) + 1
        add(
            f"msg_{slug}_{counters[slug]}", "event", frac(day), f"{name} {rng.choice(MSG_CONTENT)}."
        )

    # notes
    for n in range(1, 51):
        day, date = rday(0, 730)
        add(f"note_{n}", "note", frac(day), f"{rng.choice(NOTE_PREFIX)}: {rng.choice(NOTE_BODY)}.")

    # monthly spending summaries (last 24 full months)
    y, m = TODAY.year, TODAY.month
    for _ in range(24):
        m -= 1
        if m == 0:
            y, m = y - 1, 12
        nxt = datetime.date(y + (m == 12), m % 12 + 1, 1)
        day = (TODAY - nxt).days + 1
        add(
            f"expenses_{y}_{m:02d}",
            "note",
            frac(day),
            f"Spending {MONTHS[m - 1]} {y}: groceries {money(rng.randint(300, 460) * 1000)}, "
            f"fuel {money(rng.randint(55, 120) * 1000)}, eating out {money(rng.randint(30, 140) * 1000)}, "
            f"other {money(rng.randint(80, 400) * 1000)} CLP.",
        )

    # swell reports
    for n in range(1, 31):
        day, date = rday(0, 730)
        add(
            f"swell_{n}",
            "note",
            frac(day),
            f"Swell {rng.randint(8, 45) / 10:.1f} m from the {rng.choice(SWELL_DIRS)}, period "
            f"{rng.randint(8, 18)} s — {rng.choice(SWELL_DECISIONS)}.",
        )

    # things watched
    watched = WATCHED[:]
    rng.shuffle(watched)
    for n, (title, comment) in enumerate(watched, 1):
        day, date = rday(0, 730)
        add(f"watched_{n}", "note", frac(day), f"Watched {title} — {comment}.")
    for n in range(len(watched) + 1, len(watched) + 11):
        day, date = rday(0, 730)
        title, comment = rng.choice(WATCHED)
        add(f"watched_{n}", "note", frac(day), f"Watched {title} again — {comment}.")

    return out


# ---------------------------------------------------------------------------
# Assembly, validation, output
# ---------------------------------------------------------------------------
STOP = {
    "the",
    "and",
    "for",
    "with",
    "from",
    "that",
    "this",
    "into",
    "over",
    "after",
    "before",
    "about",
    "than",
    "then",
    "them",
    "they",
    "their",
    "there",
    "have",
    "has",
    "had",
    "was",
    "were",
    "are",
    "been",
    "being",
    "but",
    "not",
    "any",
    "all",
    "out",
    "one",
    "two",
    "its",
    "it's",
    "his",
    "her",
    "him",
    "she",
    "he",
    "you",
    "your",
    "our",
    "ours",
    "mine",
    "what",
    "which",
    "who",
    "whom",
    "when",
    "where",
    "why",
    "how",
    "can",
    "could",
    "would",
    "should",
    "will",
    "just",
    "also",
    "still",
    "now",
    "each",
    "per",
    "plus",
    "only",
    "very",
    "more",
    "most",
    "less",
    "some",
    "such",
    "every",
    "onto",
    "off",
    "too",
    "via",
    "since",
    "until",
    "don't",
    "can't",
    "i'm",
    "i've",
}

KINDS = ("drift", "followup", "multi", "update", "paraphrase", "direct")
KEY_RE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
BUDGET_TOKENS = 1000

# strings that must never appear in filler (they would leak or contradict answers)
FILLER_FORBIDDEN = [
    "levothyroxine",
    "eutirox",
    "fonasa",
    "isapre",
    "colmena",
    "penicillin",
    "amoxicillin",
    "braiding",
    "amortajada",
    "passport",
    "visa ",
    "wedding",
    "boleta",
    "caffeine",
    "decaf",
    "vegetarian",
    "vegan",
    "firework",
    "methimazole",
    "donepezil",
    "salbutamol",
    "mortgage",
    "retention",
    "jimny",
    "forester",
    "hobart",
    "tasmania",
    "imas",
    "custody",
    "allerg",
    "coeliac",
    "gluten-free bread",
    "rehearsals every",
]


def words(text):
    return {w for w in re.findall(r"[a-záéíóúñü]+", text.lower()) if len(w) >= 3 and w not in STOP}


def jaccard(a, b):
    wa, wb = words(a), words(b)
    return len(wa & wb) / max(1, len(wa | wb))


def build():
    rng = random.Random(SEED)
    entries = []
    for row in CORE:
        key, typ, days, value = row[:4]
        desc = row[4] if len(row) > 4 else None
        entries.append(
            {
                "key": key,
                "value": value,
                "days_ago": round(days + rng.random() * 0.95, 2),
                "type": typ,
                "description": desc,
            }
        )
    core_keys = {e["key"] for e in entries}
    filler = make_filler(rng)
    # filler keys must not collide with core keys
    for f in filler:
        while f["key"] in core_keys:
            f["key"] += "_x"
    entries += filler
    entries.sort(key=lambda e: (-e["days_ago"], e["key"]))

    questions = []
    groups = [
        ("drift", DRIFT),
        ("followup", FOLLOWUP),
        ("multi", MULTI),
        ("update", UPDATE),
        ("paraphrase", PARAPHRASE),
        ("direct", DIRECT),
    ]
    for kind, rows in groups:
        for i, row in enumerate(rows, 1):
            turns, answers = row[0], row[1]
            stale = row[2] if len(row) > 2 else []
            questions.append(
                {
                    "id": f"{kind}_{i:03d}",
                    "kind": kind,
                    "turns": list(turns),
                    "answers": list(answers),
                    "stale": list(stale),
                }
            )
    return {"entries": entries, "questions": questions}, core_keys, len(filler)


def validate(data, core_keys):
    errors = []
    entries = data["entries"]
    by_key = {}
    for e in entries:
        k = e["key"]
        if k in by_key:
            errors.append(f"duplicate key {k}")
        by_key[k] = e
        if not KEY_RE.match(k):
            errors.append(f"key not snake_case: {k}")
        if e["type"] not in ("fact", "preference", "event", "decision", "note"):
            errors.append(f"bad type {k}")
        if not isinstance(e["days_ago"], float) or not 0 <= e["days_ago"] <= 1700:
            errors.append(f"bad days_ago {k}")
        if not e["value"].strip():
            errors.append(f"empty value {k}")
        if k not in core_keys:
            low = e["value"].lower()
            for bad in FILLER_FORBIDDEN:
                if bad in low:
                    errors.append(f"filler {k} contains forbidden '{bad}'")

    ids = set()
    overlaps = []
    for q in data["questions"]:
        qid = q["id"]
        if qid in ids:
            errors.append(f"duplicate question id {qid}")
        ids.add(qid)
        if q["kind"] not in KINDS:
            errors.append(f"{qid}: bad kind")
        if not q["turns"] or not all(t.strip() for t in q["turns"]):
            errors.append(f"{qid}: empty turns")
        if not q["answers"]:
            errors.append(f"{qid}: no answers")
        for k in q["answers"] + q["stale"]:
            if k not in by_key:
                errors.append(f"{qid}: unknown key {k}")
            elif k not in core_keys:
                errors.append(f"{qid}: key {k} is filler")
        if len(set(q["answers"])) != len(q["answers"]) or set(q["answers"]) & set(q["stale"]):
            errors.append(f"{qid}: repeated key / answer also stale")
        if q["kind"] in ("drift", "followup") and len(q["turns"]) < 3:
            errors.append(f"{qid}: drift/followup needs >= 2 earlier turns")
        if q["kind"] == "multi" and not 2 <= len(q["answers"]) <= 4:
            errors.append(f"{qid}: multi needs 2-4 answers")
        if q["kind"] == "update":
            if not q["stale"] or len(q["answers"]) != 1:
                errors.append(f"{qid}: update needs 1 answer and >= 1 stale key")
            elif all(k in by_key for k in q["answers"] + q["stale"]):
                new = by_key[q["answers"][0]]
                for s in q["stale"]:
                    old = by_key[s]
                    if not new["days_ago"] < old["days_ago"]:
                        errors.append(f"{qid}: newer {new['key']} not more recent than {s}")
                    j = jaccard(new["value"], old["value"])
                    overlaps.append((j, qid, new["key"], s))
                    if j > 0.2:
                        errors.append(
                            f"{qid}: versions share too many words ({j:.2f}) {new['key']}/{s}"
                        )
        elif q["stale"]:
            errors.append(f"{qid}: stale only allowed for update")
        if all(k in by_key for k in q["answers"]):
            toks = (
                sum(
                    len(k) + len(by_key[k]["value"]) + len(by_key[k]["description"] or "") + 20
                    for k in q["answers"]
                )
                / 4
            )
            if toks > BUDGET_TOKENS / 2:
                errors.append(f"{qid}: answers too long for the budget ({toks:.0f} tokens)")

    counts = dict.fromkeys(KINDS, 0)
    for q in data["questions"]:
        counts[q["kind"]] += 1
    n = len(data["questions"])
    if n < 160:
        errors.append(f"only {n} questions")
    if 3 * (counts["drift"] + counts["followup"]) < n:
        errors.append("drift-like (drift + followup) < 1/3")
    if 3 * counts["multi"] < n:
        errors.append("multi < 1/3")
    if 5 * counts["update"] < n:
        errors.append("update < 1/5")
    if counts["followup"] < 15:
        errors.append("followup < 15")
    if counts["paraphrase"] < 8 or counts["direct"] < 3:
        errors.append("too few paraphrase/direct")
    n_core = len(core_keys)
    if not 270 <= n_core <= 340:
        errors.append(f"core entries {n_core} not about 300")
    if not 1100 <= len(entries) <= 1300:
        errors.append(f"total entries {len(entries)} not about 1200")
    return errors, counts, overlaps


README = """# Held-back relevance set 2 (memory selector)

A second, held-back evaluation set for the memory selector: given one user's
stored memories and the recent conversation (user turns only), which entries
should be put in the ~1,000-token memory section of the prompt?

**This set was written from the task description only, without seeing the
selector's code, its prompts, its tests or the first relevance set.  It is never
used for tuning** — run it, report the numbers, do not adjust the selector to it.

Files

* `build.py` — deterministic generator, Python standard library only
  (`python3 build.py`). Writes `set.json` and this README (counts are computed
  at build time) and validates everything; it exits non-zero on any problem.
* `set.json` — the set.

## Format

```
{{"entries":   [{{"key", "value", "days_ago", "type", "description"}}],
 "questions": [{{"id", "kind", "turns", "answers", "stale"}}]}}
```

* `type` is one of fact / preference / event / decision / note;
  `description` is a short label or null; `days_ago` is a float
  (simulated today = Monday 1 September 2025).
* `turns` are the user's messages only, oldest first; the last one is the question.
* `answers` are ALL keys needed to answer the last turn.
* `stale` (only for kind `update`): older versions of the same fact that are
  still stored. They should be shown *after* the newer entry or not at all;
  showing only the stale one is a wrong answer.

## Persona

Inés Valderrama, 41, freelance marine biologist (kelp restoration, benthic
surveys, her own SpA) and amateur cellist in a community orchestra, living in
Valparaíso, Chile. Son Mateo (15, shared custody with ex-husband Rodrigo),
mother with early Alzheimer's in a care home in Santiago, sister Lucía in
Concepción, brother Pablo in Melbourne who is getting married, new partner
Joaquín (boat carpenter), friends from the orchestra and from diving, clients
(a salmon farm, a foundation, the municipality, a port bid), coeliac disease,
asthma, hypothyroidism, a cat with hyperthyroidism and a newly adopted dog, a
house bought this year, a Suzuki replacing a Subaru, trips to Hobart and
Melbourne, Portuguese lessons, freediving, running, book club, and preferences
about how the assistant should answer.

## Entries

* **{n_core} hand-written core entries**: everything the questions are about,
  plus near-duplicates about OTHER people on the same topics (friend's
  shellfish allergy, boyfriend's cat allergy, the cat's thyroid drug vs the
  user's, mother's pills, ex-husband's / friends' cars, many birthdays, the
  sister's and the friend's jobs and moves, a friend's wedding vs the brother's
  wedding, an old Hobart stay vs the upcoming one...). Old versions of changed
  facts are kept on purpose. Keys look like what a model would pick
  (`car`, `car_update`, `mama_update`, `imas_email`, `note_quartet`,
  `las_docas_july`) and rarely spell out the answer.
* **{n_filler} generated filler entries**: a simulated two-year life log built
  from hand-written vocabularies — diary days, purchases, a reading log, dive /
  field logs, cello practice logs, runs, messages from people, notes and ideas,
  monthly spending, swell reports, things watched. Filler is topical (it
  mentions Quintay, the cello, Mateo, Pipe...) but date-aware and checked
  against a forbidden-word list so it never holds or contradicts an answer.
* **{n_entries} entries in total.**

## Questions ({n_q})

| kind | count | what it tests |
|---|---|---|
{table}

* drift-like (drift + followup) = {n_driftlike} ({pct_drift:.0f}% of all);
  multi = {pct_multi:.0f}%; update = {pct_update:.0f}%.
* **drift**: 2-3 unrelated earlier turns (small talk, other tasks) then the
  question. The distractor turns are often about topics that DO have memories
  (a report, airlines, cats, the concert...), so a selector that weighs all
  turns equally is pulled towards the wrong entries.
* **followup**: like drift, but an earlier related turn is needed to resolve
  the last one ("tell me about Pablo's wedding plans" ... "and what am I
  supposed to wear to it?").
* **multi**: 2-4 entries are needed (e.g. packing for Hobart = trip + thyroid
  tablet + inhaler + coeliac disease).
* **update**: the fact changed; the newer entry has the smaller `days_ago`, a
  different key, and shares few words with the old one (word-overlap Jaccard
  <= 0.2, checked; max in this set {max_overlap:.2f}). `answers` = newer key,
  `stale` = older key(s); one chain has three versions.
* **paraphrase**: almost no shared words; one inference step
  ("can I have an empanada at the fonda?" -> coeliac disease).
* **direct**: plain lookups.
* Some multi / update questions also have unrelated earlier turns
  ({n_multi_turn} non-drift questions have more than one turn).
* Every question's answers fit well inside the budget (largest answer set
  about {max_tokens:.0f} tokens at 4 characters per token).

## Suggested scoring

Per question: recall of `answers` among the selected entries (all-or-nothing
and fractional), precision of the selection, and for `update` whether a stale
key was selected without the newer one (error) or placed before it (ordering
error). Report per kind and overall; report drift + followup together as well.

## Validation done by build.py

keys unique and snake_case; all answer / stale keys exist and are core entries;
`stale` only on update questions and strictly older than the answer; low word
overlap between versions; drift / followup questions have >= 2 earlier turns;
multi has 2-4 answers; counts (>= 160 questions, drift-like >= 1/3,
multi >= 1/3, update >= 1/5, followup >= 15); about 300 core and about 1,200
entries in total; filler free of answer-bearing words.
"""

DESCR = {
    "drift": "question after 2-3 unrelated turns",
    "followup": "needs an earlier related turn",
    "multi": "needs 2-4 entries",
    "update": "newer version must win over stale",
    "paraphrase": "no shared words, one inference step",
    "direct": "plain lookup",
}


def main():
    data, core_keys, n_filler = build()
    errors, counts, overlaps = validate(data, core_keys)
    if errors:
        for e in errors:
            print("ERROR:", e, file=sys.stderr)
        sys.exit(1)
    with open(os.path.join(HERE, "set.json"), "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
        f.write("\n")
    n = len(data["questions"])
    by_key = {e["key"]: e for e in data["entries"]}
    max_tokens = max(
        sum(len(k) + len(by_key[k]["value"]) + 20 for k in q["answers"]) / 4
        for q in data["questions"]
    )
    table = "\n".join(f"| {k} | {counts[k]} | {DESCR[k]} |" for k in KINDS)
    table += f"\n| **total** | **{n}** | |"
    readme = README.format(
        n_core=len(core_keys),
        n_filler=n_filler,
        n_entries=len(data["entries"]),
        n_q=n,
        table=table,
        n_driftlike=counts["drift"] + counts["followup"],
        pct_drift=100 * (counts["drift"] + counts["followup"]) / n,
        pct_multi=100 * counts["multi"] / n,
        pct_update=100 * counts["update"] / n,
        max_overlap=max(o[0] for o in overlaps),
        n_multi_turn=sum(
            1
            for q in data["questions"]
            if q["kind"] not in ("drift", "followup") and len(q["turns"]) > 1
        ),
        max_tokens=max_tokens,
    )
    with open(os.path.join(HERE, "README.md"), "w", encoding="utf-8") as f:
        f.write(readme)
    print(f"entries: {len(data['entries'])} (core {len(core_keys)}, filler {n_filler})")
    print(f"questions: {n}  " + "  ".join(f"{k}={counts[k]}" for k in KINDS))
    print(f"drift-like: {counts['drift'] + counts['followup']}  (>= {n / 3:.1f} needed)")
    print(f"max version overlap: {max(o[0] for o in overlaps):.2f}")


if __name__ == "__main__":
    main()
