import { builder, doc, ld, og, onepage, shop, table, wp } from './layouts.js';
import type { EvalSite } from './types.js';

/** United Kingdom small businesses: postcodes, counties, 0-prefixed national numbers, "Ltd". */
export const UK_SITES: EvalSite[] = [
  {
    url: 'https://www.brookandbeech.co.uk/',
    style: 'address on several lines with county, no JSON-LD',
    expected: { name: 'Brook & Beech Joinery', phone: '+441483576210', city: 'Guildford', country: 'GB' },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'Bespoke Kitchens, Fitted Wardrobes & Joinery in Surrey', body: wp({ logoAlt: 'Brook &amp; Beech Joinery', main: '<h1>Handmade in Surrey</h1><p>Bespoke kitchens, fitted wardrobes and staircases made in our own workshop.</p>', footer: '<p>Brook &amp; Beech Joinery Ltd<br>Unit 4, Brook Business Park<br>Station Road<br>Guildford<br>Surrey<br>GU1 4RR</p><p>Tel: 01483 576210</p><p>Registered in England &amp; Wales No. 08812345. VAT No. GB 123 4567 89</p>' }) }),
    },
  },
  {
    url: 'https://www.thecrowninnhexham.co.uk/',
    style: 'pub, +44 (0) format, address in one line',
    expected: { name: 'The Crown Inn', phone: '+441434602211', city: 'Hexham', country: 'GB' },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'The Crown Inn | Real Ales, Sunday Roasts & Rooms | Hexham, Northumberland', head: og('site_name', 'The Crown Inn'), body: builder({ header: '<img src="/crown.png" alt="The Crown Inn Hexham">', main: '<h2>Sunday lunch served 12–4</h2><p>Dogs welcome in the bar.</p>', footer: '<p>The Crown Inn, 23 Market Place, Hexham, Northumberland NE46 1XQ</p><p>+44 (0)1434 602211 · bookings@thecrowninnhexham.co.uk</p>' }) }),
    },
  },
  {
    url: 'https://tonbridgephysio.co.uk/',
    style: 'High Street address, mobile + landline, keyword title',
    expected: { name: 'Tonbridge Physiotherapy Clinic', phone: '+441732351144', city: 'Tonbridge', country: 'GB' },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'Physiotherapy | Sports Massage | Back Pain | Tonbridge Kent', body: wp({ logoAlt: 'Tonbridge Physiotherapy Clinic', main: '<h1>Getting you moving again</h1><p>HCPC registered physiotherapists.</p>', footer: '<p>112 High Street, Tonbridge, Kent TN9 1EJ</p><p>Clinic: 01732 351144 | Mobile: 07700 900461</p><p>© 2024 Tonbridge Physiotherapy Clinic</p>' }) }),
    },
  },
  {
    url: 'https://www.mcgregor-electrical.co.uk/',
    style: 'Scottish, table layout, NICEIC, phone in img alt',
    expected: { name: 'McGregor Electrical', phone: '+441413342290', city: 'Glasgow', country: 'GB' },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'Electricians Glasgow - Rewires, Testing, Fuseboards', body: table({ top: '<img src="images/header.jpg" alt="McGregor Electrical"><img src="images/tel.gif" alt="Tel 0141 334 2290">', left: '<a href="index.htm">Home</a><br><a href="services.htm">Services</a>', main: '<p>Domestic and commercial electrical contractors covering Glasgow and the West of Scotland. NICEIC approved.</p>', bottom: 'McGregor Electrical, 45 Dumbarton Road, Glasgow G11 6PD' }) }),
    },
  },
  {
    url: 'https://www.pennineaccountants.co.uk/',
    style: 'JSON-LD AccountingService, two offices',
    expected: { name: 'Pennine Accountants', phone: '+441422348800', city: 'Halifax', country: 'GB' },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'Accountants in Halifax & Huddersfield | Pennine Accountants', head: ld({ '@context': 'https://schema.org', '@type': 'AccountingService', name: 'Pennine Accountants', telephone: '01422 348800', address: { '@type': 'PostalAddress', streetAddress: '3 Harrison Road', addressLocality: 'Halifax', postalCode: 'HX1 2AF', addressCountry: 'GB' } }), body: wp({ logoAlt: 'Pennine Accountants', main: '<h1>Chartered accountants for small businesses</h1>', footer: '<p>Halifax: 3 Harrison Road, Halifax HX1 2AF · 01422 348800</p><p>Huddersfield: 18 Westgate, Huddersfield HD1 1NN · 01484 421900</p>' }) }),
    },
  },
  {
    url: 'https://www.lavenderandsage.co.uk/',
    style: 'shop theme, London, 020 number on contact page',
    expected: { name: 'Lavender & Sage', phone: '+442079460958', city: 'London', country: 'GB' },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'Natural Skincare & Candles – Lavender & Sage', head: og('site_name', 'Lavender &amp; Sage'), body: shop({ logo: '<img src="/ls.png" alt="Lavender &amp; Sage">', main: '<h2>Handmade in London</h2>', footer: '<p>© 2025, Lavender & Sage</p>' }) }),
      '/pages/contact': doc({ lang: 'en-GB', title: 'Contact – Lavender & Sage', body: shop({ logo: 'Lavender &amp; Sage', main: '<h1>Visit our shop</h1><p>27 Columbia Road<br>London<br>E2 7RG</p><p>Phone: 020 7946 0958</p>', footer: '' }) }),
    },
  },
  {
    url: 'https://www.cotswoldcottageholidays.com/',
    style: 'holiday lets, .com domain but UK, freephone and landline',
    expected: { name: 'Cotswold Cottage Holidays', phone: '+441451820440', city: 'Bourton-on-the-Water', country: 'GB' },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'Self Catering Cottages in the Cotswolds | Dog Friendly Holiday Cottages', body: builder({ header: '<img src="/logo.png" alt="Cotswold Cottage Holidays logo">', main: '<h1>Over 80 hand-picked cottages</h1><p>Freephone 0800 612 3344</p>', footer: '<p>Cotswold Cottage Holidays, The Old Bakery, High Street, Bourton-on-the-Water, Gloucestershire GL54 2AN</p><p>Office: 01451 820440</p>' }) }),
    },
  },
  {
    url: 'https://www.harrisonsolicitors.co.uk/',
    style: 'solicitors, SRA line, DX number, Manchester',
    expected: { name: 'Harrison Solicitors', phone: '+441612345670', city: 'Manchester', country: 'GB' },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'Harrison Solicitors - Family Law, Conveyancing, Wills & Probate', body: wp({ logoAlt: 'Harrison Solicitors', main: '<h1>Straightforward legal advice</h1>', footer: '<p>Harrison Solicitors LLP, 5th Floor, 82 King Street, Manchester M2 4WQ. DX 14321 Manchester. T: 0161 234 5670 F: 0161 234 5671</p><p>Authorised and regulated by the Solicitors Regulation Authority (SRA No. 612345).</p>' }) }),
    },
  },
  {
    url: 'https://www.bristolbikeworks.co.uk/',
    style: 'one-page, phone as +44 link only',
    expected: { name: 'Bristol Bike Works', phone: '+441179290311', city: 'Bristol', country: 'GB' },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'Bike repairs & servicing', body: onepage({ brand: 'Bristol Bike Works', hero: '<h1>Bike repairs & servicing</h1>', sections: '<section id="services"><p>Services from £45.</p></section>', contact: '<h2>Find us</h2><p>Unit 2, 14 Gloucester Road, Bristol BS7 8AE</p><p><a href="tel:+441179290311">Give us a ring</a></p>', footer: '© Bristol Bike Works 2025' }) }),
    },
  },
  {
    url: 'https://www.ashfordgardenrooms.co.uk/',
    style: 'mobile only, Ltd name in footer, town with county',
    expected: { name: 'Ashford Garden Rooms', phone: '+447841226519', city: 'Ashford', country: 'GB' },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'Garden Rooms, Garden Offices and Summer Houses Kent', body: wp({ logoAlt: 'Ashford Garden Rooms', main: '<h1>Garden rooms built to last</h1>', footer: '<p>Ashford Garden Rooms Ltd, Orchard Farm, Canterbury Road, Ashford, Kent TN24 8QB</p><p>Call Dave: 07841 226519</p><p>Company no. 11223344</p>' }) }),
    },
  },
  {
    url: 'https://www.yorkdentalcare.co.uk/',
    style: 'JSON-LD Dentist with telephone as array of one',
    expected: { name: 'York Dental Care', phone: '+441904622750', city: 'York', country: 'GB' },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'NHS & Private Dentist in York', head: ld({ '@context': 'https://schema.org', '@type': 'Dentist', name: 'York Dental Care', telephone: ['01904 622750'], address: { '@type': 'PostalAddress', streetAddress: '9 Blossom Street', addressLocality: 'York', postalCode: 'YO24 1AU', addressCountry: 'United Kingdom' } }), body: wp({ logoAlt: 'York Dental Care', main: '<h1>Welcoming new patients</h1>', footer: '<p>9 Blossom Street, York YO24 1AU</p>' }) }),
    },
  },
  {
    url: 'https://www.cardiffcarpetcleaning.co.uk/',
    style: 'Wales, keyword title, phone in header image alt and text',
    expected: { name: 'Cardiff Carpet Cleaning', phone: '+442920381199', city: 'Cardiff', country: 'GB' },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'Carpet Cleaning Cardiff | Upholstery | Rug Cleaning | End of Tenancy', body: builder({ header: '<img src="/cc.png" alt="Cardiff Carpet Cleaning"><img src="/phone.png" alt="029 2038 1199">', main: '<h2>Fully insured, 5 star rated</h2>', footer: '<p>Cardiff Carpet Cleaning, 17 Clive Street, Grangetown, Cardiff CF11 7JB</p>' }) }),
    },
  },
  {
    url: 'https://www.nottinghamtyres.co.uk/',
    style: 'two branches with equal weight, head office labelled',
    expected: { name: 'Nottingham Tyre Centre', phone: '+441159786000', city: 'Nottingham', country: 'GB' },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'Cheap Tyres Nottingham - Part Worn & New Tyres Fitted', body: wp({ logoAlt: 'Nottingham Tyre Centre', main: '<h1>Tyres fitted while you wait</h1>', footer: '<p><strong>Head Office &amp; Bulwell branch</strong><br>Highbury Road, Bulwell, Nottingham NG6 9DQ<br>0115 978 6000</p><p><strong>Beeston branch</strong><br>71 Queens Road, Beeston, Nottingham NG9 2FE<br>0115 922 1122</p>' }) }),
    },
  },
];
