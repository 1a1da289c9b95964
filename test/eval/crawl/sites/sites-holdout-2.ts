import { builder, doc, ld, og, onepage, shop, table, wp } from './layouts.js';
import type { EvalSite } from './types.js';

/** A second held-out batch, written after the first held-out score was taken; not tuned on. */
export const HOLDOUT_SITES_2: EvalSite[] = [
  {
    url: 'https://www.lonestarlocksmith.com/',
    style: 'phone split over spans, "+1" and dots, USA suffix',
    expected: { name: 'Lone Star Locksmith', phone: '+12145550923', city: 'Dallas', country: 'US' },
    pages: { '/': doc({ title: 'Locksmith Dallas TX | 24 Hour Lockout Service | Car Keys', body: builder({ header: '<img src="/images/lone-star-locksmith-logo.png" alt="Lone Star Locksmith">', main: '<h2>Locked out? We arrive in 20 minutes.</h2><div class="cta"><span>Call</span> <span class="num">+1.214.555.0923</span></div>', footer: '<p>Lone Star Locksmith<br>2808 Commerce St<br>Dallas, TX 75226, USA</p><p>Serving Dallas, Irving, Garland and Mesquite</p>' }) }) },
  },
  {
    url: 'https://smithfamilyfarmstand.com/',
    style: 'farm stand, no ZIP in the address, name in h1 and copyright',
    expected: { name: 'Smith Family Farm Stand', phone: '+15083954410', city: 'Plymouth', country: 'US' },
    pages: { '/': doc({ title: 'Fresh Corn, Berries, Pies | Open Daily June–October', body: wp({ logoAlt: 'Smith Family Farm Stand', main: '<h1>Smith Family Farm Stand</h1><p>Pick-your-own strawberries in June, sweet corn from July.</p>', footer: '<p>63 Long Pond Rd, Plymouth, MA · (508) 395-4410</p><p>© Smith Family Farm Stand</p>' }) }) },
  },
  {
    url: 'https://www.apexphysicaltherapy.com/',
    style: 'several clinics in a list page, no head office label, main number shared',
    expected: { name: 'Apex Physical Therapy', phone: '+19195550610', city: 'Raleigh', country: 'US' },
    pages: {
      '/': doc({ title: 'Apex Physical Therapy | Raleigh, Cary & Wake Forest', head: og('site_name', 'Apex Physical Therapy'), body: wp({ logoAlt: 'Apex Physical Therapy', topbar: 'Scheduling: <a href="tel:9195550610">919-555-0610</a>', main: '<h1>Get back to what you love</h1>', footer: '<p>Raleigh · Cary · Wake Forest</p>' }) }),
      '/locations': doc({ title: 'Locations | Apex Physical Therapy', body: wp({ logoAlt: 'Apex Physical Therapy', main: '<h1>Our Clinics</h1><ul><li><h3>Raleigh</h3>3100 Duraleigh Rd, Suite 105, Raleigh, NC 27612</li><li><h3>Cary</h3>1150 Kildaire Farm Rd, Cary, NC 27511</li><li><h3>Wake Forest</h3>1001 S Main St, Wake Forest, NC 27587</li></ul><p>All clinics: 919-555-0610</p>', footer: '' }) }),
    },
  },
  {
    url: 'https://www.oxfordsashwindows.co.uk/',
    style: 'UK, "Tel/Fax" combined, postcode on its own line with city on the line above',
    expected: { name: 'Oxford Sash Windows', phone: '+441865778899', city: 'Oxford', country: 'GB' },
    pages: { '/': doc({ lang: 'en-GB', title: 'Sash Window Restoration & Draught Proofing | Oxfordshire', body: table({ top: '<img src="img/banner.jpg" alt="Oxford Sash Windows - Established 1989">', main: 'Restoration, repair and draught proofing of timber sash windows.', bottom: 'Oxford Sash Windows<br>Unit 3, Horspath Road<br>Oxford<br>OX4 2RZ<br>Tel/Fax: 01865 778899' }) }) },
  },
  {
    url: 'https://www.belfastdogwalkers.co.uk/',
    style: 'Northern Ireland, BT postcode, 028 number, mobile too',
    expected: { name: 'Paws About Belfast', phone: '+442890681234', city: 'Belfast', country: 'GB' },
    pages: { '/': doc({ lang: 'en-GB', title: 'Dog Walking & Pet Sitting in South Belfast', head: og('site_name', 'Paws About Belfast'), body: onepage({ brand: 'Paws About Belfast', hero: '<h1>Happy dogs, happy owners</h1>', sections: '', contact: '<p>12 Lisburn Road, Belfast BT9 6AA</p><p>028 9068 1234 / 07801 234567</p>', footer: '© Paws About Belfast 2025' }) }) },
  },
  {
    url: 'https://www.mapleridgevet.ca/',
    style: 'BC, JSON-LD with only name and phone, address as text',
    expected: { name: 'Maple Ridge Animal Hospital', phone: '+16044671234', city: 'Maple Ridge', country: 'CA' },
    pages: { '/': doc({ lang: 'en-CA', title: 'Veterinarian in Maple Ridge, BC', head: ld({ '@context': 'https://schema.org', '@type': 'VeterinaryCare', name: 'Maple Ridge Animal Hospital', telephone: '604-467-1234' }), body: wp({ logoAlt: 'Maple Ridge Animal Hospital', main: '<h1>Caring for pets since 1982</h1>', footer: '<p>22582 Dewdney Trunk Rd, Maple Ridge, BC V2X 3K1</p>' }) }) },
  },
  {
    url: 'https://www.hamiltonsigns.ca/',
    style: 'Ontario, toll-free listed first with "Call", local second',
    expected: { name: 'Hamilton Sign Co.', phone: '+19055441010', city: 'Hamilton', country: 'CA' },
    pages: { '/': doc({ lang: 'en-CA', title: 'Custom Signs, Vehicle Wraps, Banners', body: shop({ logo: '<img src="/hsc.png" alt="Hamilton Sign Co.">', main: '<h2>Signs that get noticed</h2><p>Call 1-877-544-1010</p>', footer: '<p>Hamilton Sign Co. — 255 Kenilworth Ave N, Hamilton, ON L8H 4S1 — 905-544-1010</p>' }) }) },
  },
  {
    url: 'https://www.ballaratplumbing.com.au/',
    style: 'AU regional, mobile main, PO Box and street',
    expected: { name: 'Goldfields Plumbing', phone: '+61427334455', city: 'Ballarat', country: 'AU' },
    pages: { '/': doc({ lang: 'en-AU', title: 'Plumber Ballarat | Blocked Drains | Hot Water | Gas Fitting', body: builder({ header: '<img src="/goldfields-plumbing-logo.png" alt="Goldfields Plumbing">', main: '<h2>Local Ballarat plumbers</h2><p>Call Dean on 0427 334 455</p>', footer: '<p>Goldfields Plumbing Pty Ltd</p><p>PO Box 512, Ballarat VIC 3353</p><p>ABN 98 765 432 109</p>' }) }) },
  },
  {
    url: 'https://www.noosayoga.com.au/',
    style: 'AU, address with "Shop 2/" and Noosa Heads, 07 number',
    expected: { name: 'Noosa Yoga Studio', phone: '+61754471234', city: 'Noosa Heads', country: 'AU' },
    pages: { '/': doc({ lang: 'en-AU', title: 'Noosa Yoga Studio', head: og('site_name', 'Noosa Yoga Studio'), body: wp({ logoAlt: 'Noosa Yoga Studio', main: '<h1>Vinyasa, yin and hot yoga</h1>', footer: '<p>Shop 2/12 Sunshine Beach Rd, Noosa Heads QLD 4567 · 07 5447 1234</p>' }) }) },
  },
  {
    url: 'https://www.kingstonpizza.ca/',
    style: 'restaurant, phone as "613-546-PIZZA" vanity and digits, Kingston ON',
    expected: { name: "Tony's Pizzeria", phone: '+16135467499', city: 'Kingston', country: 'CA' },
    pages: { '/': doc({ lang: 'en-CA', title: "Tony's Pizzeria | Kingston's Best Pizza Since 1979 | Order Online", body: builder({ header: "<span class=\"brand\">Tony's Pizzeria</span>", main: '<h2>Order online or call 613-546-7499</h2>', footer: "<p>Tony's Pizzeria, 221 Princess St, Kingston, ON K7L 1B3</p>" }) }) },
  },
];
