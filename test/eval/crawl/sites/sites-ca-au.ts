import { builder, doc, ld, og, onepage, shop, table, wp } from './layouts.js';
import type { EvalSite } from './types.js';

/** Canadian small businesses: province codes, A1A 1A1 postal codes, French. */
export const CA_SITES: EvalSite[] = [
  {
    url: 'https://www.kitsdental.ca/',
    style: 'Vancouver, postal code after province, phone with dashes',
    expected: { name: 'Kitsilano Family Dental', phone: '+16047327788', city: 'Vancouver', country: 'CA' },
    pages: { '/': doc({ lang: 'en-CA', title: 'Dentist in Kitsilano, Vancouver | Kitsilano Family Dental', body: wp({ logoAlt: 'Kitsilano Family Dental', main: '<h1>Your smile, our passion</h1>', footer: '<p>2150 W Broadway #201<br>Vancouver, BC V6K 4L9</p><p>604-732-7788</p><p>© 2025 Kitsilano Family Dental Inc.</p>' }) }) },
  },
  {
    url: 'https://www.boulangeriesaintpierre.ca/',
    style: 'Québec, French, (Québec) in parentheses',
    expected: { name: 'Boulangerie Saint-Pierre', phone: '+15148421150', city: 'Montréal', country: 'CA' },
    pages: { '/': doc({ lang: 'fr-CA', title: 'Boulangerie Saint-Pierre — Pains au levain et viennoiseries', body: builder({ header: '<img src="/bsp.png" alt="Boulangerie Saint-Pierre">', main: '<h2>Pains au levain, croissants et viennoiseries</h2><p>Ouvert du mardi au dimanche.</p>', footer: '<p>455, rue Saint-Pierre, Montréal (Québec) H2Y 2M8</p><p>Tél. : 514 842-1150</p><p>© 2024 Boulangerie Saint-Pierre inc. Tous droits réservés.</p>' }) }) },
  },
  {
    url: 'https://www.northernlightsplumbing.ca/',
    style: 'Edmonton, phone in img alt, emergency line',
    expected: { name: 'Northern Lights Plumbing & Heating', phone: '+17804551234', city: 'Edmonton', country: 'CA' },
    pages: { '/': doc({ lang: 'en-CA', title: 'Edmonton Plumber | Furnace Repair | Hot Water Tanks', body: builder({ header: '<img src="/nlp-logo.png" alt="Northern Lights Plumbing &amp; Heating Ltd."><img src="/call.png" alt="Call 780-455-1234">', main: '<h2>Same-day service across Edmonton, St. Albert and Sherwood Park</h2>', footer: '<p>10220 121 St NW, Edmonton, AB T5N 1K8</p><p>24hr emergency: 780-555-0100</p>' }) }) },
  },
  {
    url: 'https://www.torontobookkeeping.com/',
    style: '.com Canadian, suite prefix, toll-free 1-888',
    expected: { name: 'Maple Leaf Bookkeeping', phone: '+14163628844', city: 'Toronto', country: 'CA' },
    pages: { '/': doc({ lang: 'en-CA', title: 'Toronto Bookkeeping Services | Payroll | HST Returns', body: wp({ logoAlt: 'Maple Leaf Bookkeeping', main: '<h1>Bookkeeping for Toronto small businesses</h1>', footer: '<p>Maple Leaf Bookkeeping<br>Suite 1200 - 20 Bay Street<br>Toronto, Ontario M5J 2N8</p><p>Tel: 416-362-8844<br>Toll-free: 1-888-362-8844</p>' }) }) },
  },
  {
    url: 'https://www.okanaganwinetours.ca/',
    style: 'tours, JSON-LD TravelAgency, Kelowna',
    expected: { name: 'Okanagan Wine Tours', phone: '+12508681212', city: 'Kelowna', country: 'CA' },
    pages: { '/': doc({ lang: 'en-CA', title: 'Kelowna Wine Tours | Private & Group Winery Tours', head: ld({ '@context': 'https://schema.org', '@type': 'TravelAgency', name: 'Okanagan Wine Tours', telephone: '+1-250-868-1212', address: { '@type': 'PostalAddress', addressLocality: 'Kelowna', addressRegion: 'BC', addressCountry: 'CA' } }), body: onepage({ brand: 'Okanagan Wine Tours', hero: '<h1>Taste the valley</h1>', sections: '', contact: '<p>250-868-1212</p>', footer: '© Okanagan Wine Tours Ltd.' }) }) },
  },
  {
    url: 'https://www.halifaxharbourmovers.ca/',
    style: 'Nova Scotia, full province name, two locations',
    expected: { name: 'Harbour Movers', phone: '+19024551700', city: 'Halifax', country: 'CA' },
    pages: { '/': doc({ lang: 'en-CA', title: 'Movers Halifax NS | Local & Long Distance | Harbour Movers', body: wp({ logoAlt: 'Harbour Movers', main: '<h1>Moving Nova Scotia since 1991</h1>', footer: '<p>Head office: 3480 Kempt Road, Halifax, Nova Scotia B3K 4X8 — (902) 455-1700</p><p>Moncton: 165 Lutz Street, Moncton, NB E1C 5E9 — (506) 857-2200</p>' }) }) },
  },
  {
    url: 'https://www.calgaryautoglass.ca/',
    style: 'table layout, all on one line with pipes',
    expected: { name: 'Calgary Auto Glass', phone: '+14032431133', city: 'Calgary', country: 'CA' },
    pages: { '/': doc({ lang: 'en-CA', title: 'Calgary Auto Glass - Windshield Replacement - Rock Chip Repair', body: table({ top: '<img src="logo.gif" alt="Calgary Auto Glass">', main: '<p>Windshield replacement and rock chip repair. SGI and insurance claims handled.</p>', bottom: 'Calgary Auto Glass | 4615 Macleod Trail SW | Calgary AB T2G 0A4 | 403.243.1133' }) }) },
  },
  {
    url: 'https://www.ottawayogastudio.com/',
    style: 'shop-like, address with "Ottawa, ON", no postal code',
    expected: { name: 'Glebe Yoga Studio', phone: '+16132300880', city: 'Ottawa', country: 'CA' },
    pages: { '/': doc({ lang: 'en-CA', title: 'Yoga Classes Ottawa | Hot Yoga | Beginners Welcome', head: og('site_name', 'Glebe Yoga Studio'), body: shop({ logo: 'Glebe Yoga Studio', main: '<h2>First class free</h2>', footer: '<p>780 Bank St, 2nd floor, Ottawa, ON</p><p>613-230-0880</p>' }) }) },
  },
  {
    url: 'https://www.winnipegroofing.ca/',
    style: 'Manitoba, microdata address, fax',
    expected: { name: 'Prairie Shield Roofing', phone: '+12046336000', city: 'Winnipeg', country: 'CA' },
    pages: { '/': doc({ lang: 'en-CA', title: 'Roofing Winnipeg', body: wp({ logoAlt: 'Prairie Shield Roofing', main: '<h1>Shingle, metal and flat roofs</h1>', footer: '<div itemscope itemtype="https://schema.org/PostalAddress"><span itemprop="streetAddress">1600 Ness Ave</span>, <span itemprop="addressLocality">Winnipeg</span>, <span itemprop="addressRegion">MB</span> <span itemprop="postalCode">R3J 3W7</span></div><p>Fax 204-633-6001 · Phone 204-633-6000</p>' }) }) },
  },
  {
    url: 'https://www.victoriakayak.com/',
    style: 'rental, phone with ext, Victoria BC',
    expected: { name: 'Victoria Kayak Rentals', phone: '+12503855599', city: 'Victoria', country: 'CA' },
    pages: { '/': doc({ lang: 'en-CA', title: 'Kayak Rentals & Tours — Inner Harbour', body: builder({ header: '<span class="brand">Victoria Kayak Rentals</span>', main: '<h2>Paddle the Inner Harbour</h2>', footer: '<p>1234 Wharf St, Victoria, BC V8W 3H9</p><p>Bookings: 250-385-5599 ext 2</p>' }) }) },
  },
  {
    url: 'https://www.saskatoonfloors.ca/',
    style: 'copyright-only name, keywords title',
    expected: { name: 'Riverside Flooring', phone: '+13066528080', city: 'Saskatoon', country: 'CA' },
    pages: { '/': doc({ lang: 'en-CA', title: 'Hardwood, Vinyl Plank, Carpet & Tile | Saskatoon Flooring Store', body: builder({ header: '<img src="/logo.png" alt="">', main: '<h2>Flooring showroom</h2><p>Visit our showroom at 2505 Avenue C North, Saskatoon, SK S7L 6A6.</p>', footer: '<p>Call 306-652-8080</p><p>© 2022 Riverside Flooring Ltd. | Website by Prairie Web</p>' }) }) },
  },
  {
    url: 'https://www.quebeccityhotel.ca/',
    style: 'French, Québec city, phone 418',
    expected: { name: 'Hôtel du Vieux-Port', phone: '+14186923888', city: 'Québec', country: 'CA' },
    pages: { '/': doc({ lang: 'fr-CA', title: 'Hôtel du Vieux-Port | Hôtel boutique dans le Vieux-Québec', head: og('site_name', 'Hôtel du Vieux-Port'), body: wp({ logoAlt: 'Hôtel du Vieux-Port', main: '<h1>Au cœur du Vieux-Québec</h1>', footer: '<p>71, rue Saint-Paul, Québec (Québec) G1K 3V8</p><p>418 692-3888 · Sans frais : 1 888 692-3888</p>' }) }) },
  },
];

/** Australian small businesses: state + postcode, (0X) area codes, 04 mobiles, 1300 numbers, "Pty Ltd". */
export const AU_SITES: EvalSite[] = [
  {
    url: 'https://www.fincar.com.au/',
    style: 'title "Car Loans", Pty Ltd in footer, 1300 number',
    expected: { name: 'Fincar', phone: '+611300346227', city: 'Sydney', country: 'AU' },
    pages: {
      '/': doc({ lang: 'en-AU', title: 'Car Loans | Compare Car Finance | Fast Approval', body: builder({ header: '<img src="/img/fincar-logo.svg" alt="FinCar">', main: '<h1>Car Loans</h1><p>Compare car finance from 40+ lenders.</p><p>Call 1300 FINCAR (1300 346 227)</p>', footer: '<p>FinCar Pty Ltd ABN 12 345 678 901 | Australian Credit Licence 456789</p><p>Level 12, 1 Market Street, Sydney NSW 2000</p>' }) }),
    },
  },
  {
    url: 'https://www.parramattaphysio.com.au/',
    style: 'Suite line, (02) number',
    expected: { name: 'Parramatta Physiotherapy', phone: '+61296353344', city: 'Parramatta', country: 'AU' },
    pages: { '/': doc({ lang: 'en-AU', title: 'Physio Parramatta | Sports Injuries | Dry Needling', body: wp({ logoAlt: 'Parramatta Physiotherapy', main: '<h1>Book online today</h1>', footer: '<p>Suite 3, 45 Macquarie St<br>Parramatta NSW 2150</p><p>Ph: (02) 9635 3344</p>' }) }) },
  },
  {
    url: 'https://www.collinsstreetlawyers.com.au/',
    style: 'Level line, Melbourne, JSON-LD',
    expected: { name: 'Collins Street Lawyers', phone: '+61396541200', city: 'Melbourne', country: 'AU' },
    pages: { '/': doc({ lang: 'en-AU', title: 'Collins Street Lawyers | Melbourne Commercial & Property Lawyers', head: ld({ '@context': 'https://schema.org', '@type': 'LegalService', name: 'Collins Street Lawyers', telephone: '03 9654 1200', address: { '@type': 'PostalAddress', streetAddress: 'Level 2, 100 Collins Street', addressLocality: 'Melbourne', addressRegion: 'VIC', postalCode: '3000', addressCountry: 'AU' } }), body: wp({ logoAlt: 'Collins Street Lawyers', main: '<h1>Practical legal advice</h1>', footer: '<p>Level 2, 100 Collins Street Melbourne VIC 3000</p>' }) }) },
  },
  {
    url: 'https://www.sunshinecoastelectrical.com.au/',
    style: 'mobile only, licence number, suburb',
    expected: { name: 'Sunshine Coast Electrical', phone: '+61412345678', city: 'Maroochydore', country: 'AU' },
    pages: { '/': doc({ lang: 'en-AU', title: 'Electrician Sunshine Coast | Maroochydore, Buderim, Mooloolaba', body: builder({ header: '<img src="/logo.png" alt="Sunshine Coast Electrical">', main: '<h2>Local sparky, no call-out fee</h2><p>Call Mick 0412 345 678</p>', footer: '<p>Sunshine Coast Electrical · 8/22 Dalton Dr, Maroochydore QLD 4558 · Lic. 78912</p>' }) }) },
  },
  {
    url: 'https://www.perthpoolshop.com.au/',
    style: 'two stores, WA, (08) numbers',
    expected: { name: 'Perth Pool Shop', phone: '+61893451234', city: 'Osborne Park', country: 'AU' },
    pages: { '/': doc({ lang: 'en-AU', title: 'Pool Chemicals, Pumps & Filters | Perth Pool Shop', body: shop({ logo: 'Perth Pool Shop', main: '<h2>Free water testing in store</h2>', footer: '<p><b>Osborne Park</b> 401 Scarborough Beach Rd, Osborne Park WA 6017 · (08) 9345 1234</p><p><b>Joondalup</b> 5 Winton Rd, Joondalup WA 6027 · (08) 9300 4455</p><p>© 2025 Perth Pool Shop</p>' }) }) },
  },
  {
    url: 'https://www.adelaidehillsbakehouse.com.au/',
    style: 'phone in image alt only, Hahndorf',
    expected: { name: 'Adelaide Hills Bakehouse', phone: '+61883887766', city: 'Hahndorf', country: 'AU' },
    pages: { '/': doc({ lang: 'en-AU', title: 'Home', body: builder({ header: '<img src="/ahb.png" alt="Adelaide Hills Bakehouse">', main: '<h2>Pies, pasties and sourdough</h2><img src="/phone-banner.jpg" alt="Phone (08) 8388 7766">', footer: '<p>62 Main St, Hahndorf SA 5245</p>' }) }) },
  },
  {
    url: 'https://www.hobartbuilders.com.au/',
    style: 'Tasmania, copyright Pty Ltd, title slogan',
    expected: { name: 'Derwent Building Co', phone: '+61362341122', city: 'Hobart', country: 'AU' },
    pages: { '/': doc({ lang: 'en-AU', title: 'Quality Homes, Renovations & Extensions', body: wp({ logoAlt: 'Derwent Building Co', main: '<h1>Building in southern Tasmania for 30 years</h1>', footer: '<p>Derwent Building Co Pty Ltd · 150 Elizabeth St, Hobart TAS 7000 · (03) 6234 1122</p><p>© Derwent Building Co Pty Ltd 2024</p>' }) }) },
  },
  {
    url: 'https://www.darwinfishingcharters.com.au/',
    style: 'NT, +61 format, mobile',
    expected: { name: 'Top End Fishing Charters', phone: '+61418891234', city: 'Darwin', country: 'AU' },
    pages: { '/': doc({ lang: 'en-AU', title: 'Darwin Fishing Charters | Barramundi Fishing', head: og('site_name', 'Top End Fishing Charters'), body: onepage({ brand: 'Top End Fishing Charters', hero: '<h1>Chase the barra</h1>', sections: '', contact: '<p>Cullen Bay Marina, Darwin NT 0820</p><p>+61 418 891 234</p>', footer: '© Top End Fishing Charters' }) }) },
  },
  {
    url: 'https://www.canberradentalcare.com.au/',
    style: 'ACT, microdata name and phone',
    expected: { name: 'Canberra Dental Care', phone: '+61262471100', city: 'Canberra', country: 'AU' },
    pages: { '/': doc({ lang: 'en-AU', title: 'Dentist Canberra City | Canberra Dental Care', body: wp({ logoAlt: 'Canberra Dental Care', main: '<h1>Gentle dentistry in Canberra</h1>', footer: '<div itemscope itemtype="https://schema.org/Dentist"><span itemprop="name">Canberra Dental Care</span> · <span itemprop="telephone">(02) 6247 1100</span><div itemprop="address" itemscope itemtype="https://schema.org/PostalAddress"><span itemprop="streetAddress">Level 1, 40 Marcus Clarke St</span>, <span itemprop="addressLocality">Canberra</span> <span itemprop="addressRegion">ACT</span> <span itemprop="postalCode">2601</span></div></div>' }) }) },
  },
  {
    url: 'https://www.geelongmechanics.com.au/',
    style: 'table layout, old, Geelong',
    expected: { name: 'Bay City Mechanical', phone: '+61352221890', city: 'Geelong', country: 'AU' },
    pages: { '/': doc({ lang: 'en-AU', title: 'Bay City Mechanical - Car Servicing Geelong', body: table({ top: '<img src="images/bcm.jpg" alt="Bay City Mechanical">', main: 'Log book servicing, brakes, clutches, roadworthy certificates.', bottom: '12 Mercer St Geelong VIC 3220 &nbsp; Ph 03 5222 1890' }) }) },
  },
  {
    url: 'https://www.bondicafe.com.au/',
    style: 'cafe, no phone, suburb in Sydney',
    expected: { name: 'Salt & Sand Café', phone: null, city: 'Bondi Beach', country: 'AU' },
    pages: { '/': doc({ lang: 'en-AU', title: 'Salt & Sand Café — Bondi', head: og('site_name', 'Salt &amp; Sand Café'), body: builder({ header: '<span>SALT &amp; SAND</span>', main: '<p>Breakfast and lunch, 7 days. No bookings, walk-ins only.</p>', footer: '<p>180 Campbell Parade, Bondi Beach NSW 2026</p><p>@saltandsandbondi</p>' }) }) },
  },
  {
    url: 'https://www.goldcoastpestcontrol.com.au/',
    style: '1300 main, local mobile, Southport',
    expected: { name: 'Gold Coast Pest Control', phone: '+611300737800', city: 'Southport', country: 'AU' },
    pages: { '/': doc({ lang: 'en-AU', title: 'Pest Control Gold Coast | Termite Inspections | Cockroaches, Spiders, Rodents', body: wp({ logoAlt: 'Gold Coast Pest Control', topbar: 'Call 1300 737 800', main: '<h1>Same day pest control</h1>', footer: '<p>Gold Coast Pest Control, 3/67 Scarborough St, Southport QLD 4215</p><p>Phone 1300 737 800</p>' }) }) },
  },
  {
    url: 'https://www.townsvilletyres.com.au/',
    style: 'Townsville, phone with spaces and no brackets',
    expected: { name: 'North Queensland Tyres', phone: '+61747751234', city: 'Townsville', country: 'AU' },
    pages: { '/': doc({ lang: 'en-AU', title: 'Tyres Townsville | 4WD Tyres | Wheel Alignments', body: builder({ header: '<img src="/nqt.png" alt="North Queensland Tyres logo">', main: '<h2>Big range of 4WD tyres</h2>', footer: '<p>North Queensland Tyres — 220 Ingham Rd, Garbutt, Townsville QLD 4814 — 07 4775 1234</p>' }) }) },
  },
];
