import { builder, doc, ld, meta, og, onepage, shop, table, wp } from './layouts.js';
import type { EvalSite } from './types.js';

/** United States small businesses. */
export const US_SITES: EvalSite[] = [
  {
    url: 'https://www.leewardproductions.com/',
    style: 'keyword title, copyright line is the only name, phone in header text',
    expected: { name: 'Leeward Productions', phone: '+18083291174', city: 'Kailua-Kona', country: 'US' },
    pages: {
      '/': doc({
        title: 'Custom License Plates, Aluminum or Plastic, Free Design',
        head: meta('description', 'Custom license plates in aluminum or plastic with free design. Fast turnaround, no minimum order.') + meta('keywords', 'custom license plates, novelty plates, aluminum plates'),
        body: wp({
          logoAlt: '', topbar: '<span class="phone"><i class="fa fa-phone"></i> Call Us: (808) 329-1174</span> <span>Mon-Fri 8am-4pm HST</span>',
          main: '<h1>Custom License Plates</h1><p>Design your own license plate online. Aluminum or plastic, full color, any design, shipped anywhere in the USA. Free design help from our artists.</p><h2>Why choose us?</h2><ul><li>No minimum order</li><li>Free design</li><li>Ships in 3 days</li></ul>',
          footer: '<div class="widget"><h3>Contact</h3><p>74-5599 Luhia St. Suite F3<br>Kailua-Kona, HI 96740<br>Phone: (808) 329-1174<br>Fax: (808) 329-1175</p></div><div class="site-info">© 2024 Leeward Productions LLC. All Rights Reserved. | Website by <a href="https://islandweb.example">Island Web Design</a></div>',
        }),
      }),
    },
  },
  {
    url: 'https://www.haydenoutdoors.com/',
    style: 'slogan title, several branch offices, toll-free main number',
    expected: { name: 'Hayden Outdoors', phone: '+19703009500', city: 'Brush', country: 'US' },
    pages: {
      '/': doc({
        title: 'Land and Ranches For Sale | Hunting, Farm & Recreational Property',
        head: og('site_name', 'Hayden Outdoors') + og('title', 'Land and Ranches For Sale'),
        body: builder({
          header: '<a href="/"><img src="/img/hayden-outdoors-logo-white.svg" alt="Hayden Outdoors Real Estate"></a> <a href="tel:9703009500">970.300.9500</a>',
          main: '<h1>Land and Ranches For Sale</h1><p>Hayden Outdoors Real Estate is the nation\'s leading land brokerage, specializing in farms, ranches, hunting and recreational properties across the West and Midwest.</p><div class="listing">Featured: 640 acres near Kremmling, CO — $2,450,000</div>',
          footer: '<div class="col"><strong>Corporate Office</strong><br>501 Main Street<br>Brush, CO 80723<br>Office: 970.300.9500<br>Toll Free: 1-866-471-1700</div><div class="col">© 2025 Hayden Outdoors, LLC. Real Estate. All rights reserved.</div>',
        }),
      }),
      '/offices': doc({
        title: 'Our Offices | Hayden Outdoors',
        body: builder({
          header: '<img src="/img/hayden-outdoors-logo-white.svg" alt="Hayden Outdoors Real Estate">',
          main: '<h1>Office Locations</h1><div><h3>Brush, Colorado (Headquarters)</h3><p>501 Main Street, Brush, CO 80723<br>970.300.9500</p></div><div><h3>Steamboat Springs</h3><p>1125 Lincoln Ave, Steamboat Springs, CO 80487<br>970.879.5544</p></div><div><h3>Kearney, Nebraska</h3><p>2210 2nd Ave, Kearney, NE 68847<br>308.455.1226</p></div>',
          footer: '© 2025 Hayden Outdoors, LLC.',
        }),
      }),
    },
  },
  {
    url: 'https://www.postroadfamilydental.com/',
    style: 'address in footer only, street is "Post Rd", phone with dots',
    expected: { name: 'Post Road Family Dental', phone: '+12032598400', city: 'Fairfield', country: 'US' },
    pages: {
      '/': doc({
        title: 'Fairfield CT Dentist | Family & Cosmetic Dentistry | Post Road Family Dental',
        body: wp({
          logoAlt: 'Post Road Family Dental',
          main: '<h1>Gentle Family Dentistry in Fairfield, Connecticut</h1><p>Dr. Amy Chen and our team welcome patients of all ages. New patients are always welcome and we accept most insurance plans.</p><a class="btn" href="/appointment">Request an Appointment</a>',
          footer: '<div class="footer-col"><h4>Visit Us</h4><p>1420 Post Rd<br>Fairfield, CT 06824</p></div><div class="footer-col"><h4>Call Us</h4><p><a href="tel:203.259.8400">203.259.8400</a></p></div><div class="footer-col"><h4>Hours</h4><p>Mon–Thu 8–5<br>Fri 8–2</p></div><p class="copy">Copyright © 2024 Post Road Family Dental. Dental Website Design by ProSites</p>',
        }),
      }),
      '/contact-us': doc({ title: 'Contact Us | Post Road Family Dental', body: wp({ logoAlt: 'Post Road Family Dental', main: '<h1>Contact Us</h1><p>Post Road Family Dental<br>1420 Post Rd<br>Fairfield, CT 06824</p><p>Phone: 203.259.8400<br>Fax: 203.259.8401</p>', footer: '<p>Copyright © 2024 Post Road Family Dental.</p>' }) }),
    },
  },
  {
    url: 'https://butlerhardware.net/',
    style: 'old table layout, "N. Butler" street, phone in image alt',
    expected: { name: 'Butler Hardware', phone: '+13046452050', city: 'Lewisburg', country: 'US' },
    pages: {
      '/': doc({
        title: 'Welcome to Butler Hardware',
        body: table({
          top: '<img src="images/banner.jpg" width="780" height="120" alt="Butler Hardware - Since 1946"><br><img src="images/phone.gif" alt="Call 304-645-2050">',
          left: '<a href="index.html">Home</a><br><a href="paint.html">Paint</a><br><a href="tools.html">Tools</a><br><a href="directions.html">Directions</a>',
          main: '<p><b>Family owned since 1946!</b></p><p>We carry paint, plumbing and electrical supplies, lawn and garden, keys cut while you wait and much more. Stop in and see us!</p>',
          bottom: 'Butler Hardware &middot; 213 N. Butler St. &middot; Lewisburg, WV 24901<br>Copyright 2009 Butler Hardware',
        }),
      }),
    },
  },
  {
    url: 'https://www.summitroofingtx.com/',
    style: 'JSON-LD RoofingContractor, title keywords',
    expected: { name: 'Summit Roofing & Restoration', phone: '+18172466310', city: 'Fort Worth', country: 'US' },
    pages: {
      '/': doc({
        title: 'Fort Worth Roofing Contractor | Roof Repair & Replacement | Free Inspection',
        head: ld({ '@context': 'https://schema.org', '@type': 'RoofingContractor', name: 'Summit Roofing & Restoration', telephone: '(817) 246-6310', address: { '@type': 'PostalAddress', streetAddress: '3200 W 7th St Suite 210', addressLocality: 'Fort Worth', addressRegion: 'TX', postalCode: '76107', addressCountry: 'US' } }),
        body: wp({ logoAlt: 'Summit Roofing logo', topbar: 'Free Roof Inspection! Call <a href="tel:+18172466310">(817) 246-6310</a>', main: '<h1>Fort Worth\'s Trusted Roofers</h1><p>Storm damage? Our GAF certified crews handle insurance claims, roof repair and full replacements across Tarrant County.</p>', footer: '<p>3200 W 7th St Suite 210, Fort Worth, TX 76107</p><p>© 2025 Summit Roofing & Restoration | Privacy Policy</p>' }),
      }),
    },
  },
  {
    url: 'https://www.bellaluna-salon.com/',
    style: 'site builder, phone as plain text, logo alt is file name',
    expected: { name: 'Bella Luna Salon', phone: '+16192997733', city: 'San Diego', country: 'US' },
    pages: {
      '/': doc({
        title: 'HOME | Bella Luna Salon',
        head: og('site_name', 'bellaluna-salon'),
        body: builder({ header: '<img src="https://static.example/media/a1b2c3_logo.png" alt="a1b2c3_logo.png"><span>BELLA LUNA SALON</span>', main: '<h2>Hair • Color • Extensions</h2><p>Book your appointment online or call us!</p><p>619-299-7733</p>', footer: '<p>3865 Fifth Ave</p><p>San Diego, CA 92103</p><p>619-299-7733</p><p>info@bellaluna-salon.com</p><p>©2023 by Bella Luna Salon. Proudly created with Wix.com</p>' }),
      }),
    },
  },
  {
    url: 'https://www.mckinneyplumbingco.com/',
    style: 'two numbers (office + emergency), 24/7 slogan title',
    expected: { name: 'McKinney Plumbing Co.', phone: '+14695479600', city: 'McKinney', country: 'US' },
    pages: {
      '/': doc({
        title: '24/7 Emergency Plumber McKinney TX - Water Heaters, Drains, Leaks',
        body: onepage({
          brand: '<img src="/assets/mpc-logo.png" alt="McKinney Plumbing Co. logo">',
          hero: '<h1>Plumbing Problems? We\'re On Our Way.</h1><p>Licensed, insured, upfront pricing.</p><a class="btn" href="tel:4695479600">Call (469) 547-9600</a>',
          sections: '<section id="services"><h2>Services</h2><ul><li>Water heaters</li><li>Drain cleaning</li><li>Slab leaks</li></ul></section>',
          contact: '<h2>Contact</h2><p>Office: (469) 547-9600<br>After hours emergency: (469) 555-0142</p><p>1705 W University Dr #112, McKinney, TX 75069</p>',
          footer: '<p>Copyright © McKinney Plumbing Co. 2025 · TX M-41265</p>',
        }),
      }),
    },
  },
  {
    url: 'https://www.oakandanchorcoffee.com/',
    style: 'shop theme, og:site_name, address on contact page only',
    expected: { name: 'Oak & Anchor Coffee', phone: '+12075550187', city: 'Portland', country: 'US' },
    pages: {
      '/': doc({ title: 'Oak & Anchor Coffee', head: og('site_name', 'Oak &amp; Anchor Coffee'), body: shop({ announcement: 'Free shipping on orders over $40', logo: 'Oak &amp; Anchor Coffee', main: '<h2>Small-batch coffee, roasted in Maine</h2><div class="product-grid"><div>Harbor Blend – $16.00</div><div>Lighthouse Espresso – $18.00</div></div>', footer: '<p>© 2025, Oak & Anchor Coffee Powered by Shopify</p>' }) }),
      '/pages/contact': doc({ title: 'Contact – Oak & Anchor Coffee', body: shop({ logo: 'Oak &amp; Anchor Coffee', main: '<h1>Contact</h1><p>Our café and roastery:<br>118 Commercial St<br>Portland, ME 04101</p><p>(207) 555-0187</p>', footer: '<p>© 2025, Oak & Anchor Coffee</p>' }) }),
    },
  },
  {
    url: 'https://www.greenvalleyvet.com/',
    style: 'microdata PostalAddress, fax labelled first',
    expected: { name: 'Green Valley Veterinary Hospital', phone: '+15208256000', city: 'Tucson', country: 'US' },
    pages: {
      '/': doc({
        title: 'Green Valley Veterinary Hospital - Tucson, AZ',
        body: wp({ logoAlt: 'Green Valley Veterinary Hospital', main: '<h1>Compassionate Care for Your Pets</h1><p>Full-service animal hospital offering wellness exams, vaccines, dentistry and surgery.</p>', footer: '<div itemscope itemtype="http://schema.org/VeterinaryCare"><span itemprop="name">Green Valley Veterinary Hospital</span><div itemprop="address" itemscope itemtype="http://schema.org/PostalAddress"><span itemprop="streetAddress">7225 N Oracle Rd</span>, <span itemprop="addressLocality">Tucson</span>, <span itemprop="addressRegion">AZ</span> <span itemprop="postalCode">85704</span></div>Fax: (520) 825-6001 | Phone: <span itemprop="telephone">(520) 825-6000</span></div><p>© 2024 Green Valley Veterinary Hospital</p>' }),
      }),
    },
  },
  {
    url: 'https://www.cornerstonecpa.us/',
    style: 'phone with extension, "Suite" line, Inc name',
    expected: { name: 'Cornerstone CPA Group', phone: '+16153710450', city: 'Nashville', country: 'US' },
    pages: {
      '/': doc({ title: 'Home - Cornerstone CPA Group', body: wp({ logoAlt: 'Cornerstone CPA Group, PLLC', main: '<h1>Tax, Accounting and Advisory for Small Businesses</h1><p>We help owners in Middle Tennessee keep more of what they earn.</p>', footer: '<p>Cornerstone CPA Group, PLLC<br>2100 West End Ave<br>Suite 800<br>Nashville, TN 37203</p><p>P: 615-371-0450 ext. 101</p><p>© 2025 Cornerstone CPA Group</p>' }) }),
    },
  },
  {
    url: 'https://fincarloans.com/',
    style: 'title "Car Loans", name only in logo alt and copyright',
    expected: { name: 'Fincar Loans', phone: '+18882346227', city: 'Scottsdale', country: 'US' },
    pages: {
      '/': doc({ title: 'Car Loans', body: builder({ header: '<img src="/logo.svg" alt="Fincar Loans">', main: '<h1>Car loans in minutes</h1><p>Compare rates from 30+ lenders. Bad credit OK.</p><p>Call 1-888-234-6227</p>', footer: '<p>Fincar Loans Inc. NMLS #2231405</p><p>8777 E Via de Ventura, Scottsdale, AZ 85258</p><p>© 2024 Fincar Loans Inc.</p>' }) }),
    },
  },
  {
    url: 'http://www.jimsautobody.com/',
    style: 'table layout, everything in one centred cell, all caps',
    expected: { name: "Jim's Auto Body", phone: '+16083562211', city: 'Madison', country: 'US' },
    pages: {
      '/': doc({ title: "JIM'S AUTO BODY - COLLISION REPAIR - MADISON WI", body: table({ top: "<center><font size=\"6\" color=\"red\"><b>JIM'S AUTO BODY</b></font></center>", main: '<center>COLLISION REPAIR * FRAME STRAIGHTENING * INSURANCE WORK WELCOME<br><br>Serving Madison since 1978</center>', bottom: '4402 E WASHINGTON AVE<br>MADISON, WI 53704<br>PHONE (608) 356-2211' }) }),
    },
  },
  {
    url: 'https://www.redrocklaw.com/',
    style: 'law firm, JSON-LD with LegalService, three offices',
    expected: { name: 'Red Rock Law Group', phone: '+17025551020', city: 'Las Vegas', country: 'US' },
    pages: {
      '/': doc({
        title: 'Las Vegas Personal Injury Lawyer | Red Rock Law Group',
        head: ld({ '@context': 'https://schema.org', '@type': 'LegalService', name: 'Red Rock Law Group', telephone: '+1-702-555-1020', address: { '@type': 'PostalAddress', streetAddress: '9900 Covington Cross Dr #120', addressLocality: 'Las Vegas', addressRegion: 'NV', postalCode: '89144', addressCountry: 'US' } }),
        body: wp({ logoAlt: 'Red Rock Law Group', main: '<h1>Injured? We Fight For You.</h1><p>No fee unless we win.</p>', footer: '<p>Las Vegas: 9900 Covington Cross Dr #120, Las Vegas, NV 89144 · (702) 555-1020</p><p>Henderson: 2470 St Rose Pkwy, Henderson, NV 89074 · (702) 555-1030</p><p>Reno: 50 W Liberty St, Reno, NV 89501 · (775) 555-1040</p>' }),
      }),
    },
  },
  {
    url: 'https://www.thegildedpantry.com/',
    style: 'restaurant, og:site_name, address in hours block',
    expected: { name: 'The Gilded Pantry', phone: '+15032271530', city: 'Portland', country: 'US' },
    pages: {
      '/': doc({ title: 'The Gilded Pantry — Brunch, Bakery & Bar', head: og('site_name', 'The Gilded Pantry'), body: builder({ header: '<h1>THE GILDED PANTRY</h1>', main: '<p>Brunch daily 8–3 · Bakery opens 7</p><p>Reservations for parties of 6+</p>', footer: '<p>2340 NE Alberta St · Portland, Oregon 97211</p><p>503.227.1530</p><p>hello@thegildedpantry.com</p>' }) }),
    },
  },
  {
    url: 'https://www.atlasmovers.net/',
    style: 'moving company, toll-free first, local second',
    expected: { name: 'Atlas Moving & Storage', phone: '+17045883310', city: 'Charlotte', country: 'US' },
    pages: {
      '/': doc({ title: 'Charlotte Movers - Local & Long Distance Moving Company', body: onepage({ brand: 'ATLAS MOVING &amp; STORAGE', hero: '<h1>Charlotte\'s Five-Star Movers</h1><p>Toll Free: 1-800-555-0199</p>', sections: '<section id="about"><p>Locally owned since 2004. Licensed USDOT #1234567.</p></section>', contact: '<h2>Get a Free Quote</h2><p>Local: <a href="tel:17045883310">704-588-3310</a><br>Toll Free: 1-800-555-0199</p><p>5109 South Blvd, Charlotte, NC 28217</p>', footer: '© 2025 Atlas Moving & Storage, Inc.' }) }),
    },
  },
  {
    url: 'https://www.prairieoptometry.com/',
    style: 'two clinics, main in JSON-LD-less footer, hours',
    expected: { name: 'Prairie Optometry', phone: '+13168432020', city: 'Wichita', country: 'US' },
    pages: {
      '/': doc({ title: 'Eye Exams, Glasses & Contacts | Prairie Optometry | Wichita & Derby KS', body: wp({ logoAlt: 'Prairie Optometry', main: '<h1>See Clearly. Live Fully.</h1><p>Comprehensive eye exams for the whole family.</p>', footer: '<div><h4>Wichita</h4><p>8100 E 22nd St N, Bldg 400<br>Wichita, KS 67226<br>(316) 843-2020</p></div><div><h4>Derby</h4><p>1621 N Rock Rd<br>Derby, KS 67037<br>(316) 788-4040</p></div><p>© 2024 Prairie Optometry, P.A.</p>' }) }),
    },
  },
  {
    url: 'https://www.bluefinpoolservice.com/',
    style: 'phone only in image alt, city only in text "Serving ..."',
    expected: { name: 'Bluefin Pool Service', phone: '+18136211844', city: 'Tampa', country: 'US' },
    pages: {
      '/': doc({ title: 'Pool Cleaning Tampa | Weekly Pool Service', body: builder({ header: '<img src="/bluefin.png" alt="Bluefin Pool Service"><img src="/call-now.png" alt="Call Now 813-621-1844">', main: '<h2>Weekly pool cleaning from $139/mo</h2><p>Serving Tampa, Brandon and Riverview.</p>', footer: '<p>Bluefin Pool Service LLC · 4010 W Kennedy Blvd, Tampa, FL 33609</p>' }) }),
    },
  },
  {
    url: 'https://www.kesslerandsons.com/',
    style: 'HVAC, JSON-LD Organization name + LocalBusiness separate, copyright different legal name',
    expected: { name: 'Kessler & Sons Heating and Cooling', phone: '+16144710900', city: 'Columbus', country: 'US' },
    pages: {
      '/': doc({
        title: 'Furnace Repair, AC Installation Columbus Ohio',
        head: ld({ '@context': 'https://schema.org', '@graph': [{ '@type': 'WebSite', name: 'Furnace Repair Columbus' }, { '@type': 'HVACBusiness', name: 'Kessler & Sons Heating and Cooling', telephone: '614-471-0900', address: { '@type': 'PostalAddress', streetAddress: '2765 Morse Rd', addressLocality: 'Columbus', addressRegion: 'OH', postalCode: '43231' } }] }),
        body: wp({ logoAlt: 'Kessler and Sons', main: '<h1>Furnace Repair & AC Installation</h1>', footer: '<p>© 2025 Kessler Mechanical Inc. dba Kessler & Sons</p>' }),
      }),
    },
  },
  {
    url: 'https://www.sweetmagnoliabakery.com/',
    style: 'no phone on site, address in paragraph',
    expected: { name: 'Sweet Magnolia Bakery', phone: null, city: 'Savannah', country: 'US' },
    pages: {
      '/': doc({ title: 'Sweet Magnolia Bakery', body: builder({ header: '<span>Sweet Magnolia Bakery</span>', main: '<p>Come see us at 412 Whitaker Street in downtown Savannah, GA 31401. Open Wednesday through Sunday, 7am until we sell out!</p>', footer: '<p>Orders: orders@sweetmagnoliabakery.com</p><p>© Sweet Magnolia Bakery</p>' }) }),
    },
  },
  {
    url: 'https://www.northshorepediatrics.org/',
    style: 'medical practice, phone labelled main + billing + fax',
    expected: { name: 'North Shore Pediatrics', phone: '+18477240300', city: 'Glenview', country: 'US' },
    pages: {
      '/': doc({ title: 'North Shore Pediatrics', body: wp({ logoAlt: 'North Shore Pediatrics', main: '<h1>Caring for children from birth to 21</h1>', footer: '<p>1950 Waukegan Rd, Suite 200<br>Glenview, IL 60025</p><p>Main: (847) 724-0300<br>Billing: (847) 724-0311<br>Fax: (847) 724-0399</p><p>© 2025 North Shore Pediatrics, S.C.</p>' }) }),
    },
  },
  {
    url: 'https://www.graniteedgecountertops.com/',
    style: 'title is tagline, brand in og:title segment, St. city name',
    expected: { name: 'Granite Edge Countertops', phone: '+13147812233', city: 'St. Louis', country: 'US' },
    pages: {
      '/': doc({ title: 'Quartz & Granite Countertops – Kitchen & Bath – Free Estimates', head: og('title', 'Granite Edge Countertops - Quartz & Granite Countertops'), body: builder({ header: '<img src="/ge.png" alt="logo">', main: '<h2>Showroom open Mon–Sat</h2>', footer: '<p>Granite Edge Countertops<br>6120 Manchester Ave<br>St. Louis, MO 63139<br>314-781-2233</p>' }) }),
    },
  },
  {
    url: 'https://www.desertbloomlandscaping.com/',
    style: 'phone with "Se habla español" line, ZIP+4',
    expected: { name: 'Desert Bloom Landscaping', phone: '+15058841277', city: 'Albuquerque', country: 'US' },
    pages: {
      '/': doc({ title: 'Albuquerque Landscaping, Xeriscape & Irrigation | Desert Bloom', body: wp({ logoAlt: 'Desert Bloom Landscaping', main: '<h1>Xeriscape Design and Installation</h1><p>Se habla español.</p>', footer: '<p>Desert Bloom Landscaping<br>PO Box 3344<br>Albuquerque, NM 87190-3344</p><p>Call or text: 505-884-1277</p>' }) }),
    },
  },
  {
    url: 'https://www.harborviewinn.com/',
    style: 'inn, phone in +1 format, city in JSON-LD Hotel',
    expected: { name: 'Harborview Inn', phone: '+12078672300', city: 'Bar Harbor', country: 'US' },
    pages: {
      '/': doc({ title: 'Bar Harbor Hotel Near Acadia | Harborview Inn', head: ld({ '@context': 'https://schema.org', '@type': 'Hotel', name: 'Harborview Inn', telephone: '+1 207-867-2300', address: { '@type': 'PostalAddress', streetAddress: '16 Main St', addressLocality: 'Bar Harbor', addressRegion: 'ME', postalCode: '04609', addressCountry: 'US' } }), body: wp({ logoAlt: 'Harborview Inn Bar Harbor', main: '<h1>Steps from the harbor</h1>', footer: '<p>16 Main St, Bar Harbor, ME 04609 · +1 207-867-2300</p>' }) }),
    },
  },
  {
    url: 'https://www.tristatecrane.com/',
    style: 'industrial, two yards, headquarters labelled',
    expected: { name: 'Tri-State Crane Rental', phone: '+14127814400', city: 'Pittsburgh', country: 'US' },
    pages: {
      '/': doc({ title: 'Crane Rental | Rigging | Heavy Haul | Pennsylvania, Ohio, West Virginia', body: builder({ header: '<img src="/tsc.jpg" alt="Tri-State Crane Rental, Inc.">', main: '<h1>Cranes from 25 to 500 tons</h1>', footer: '<p><b>Headquarters</b> 1200 Preble Ave, Pittsburgh, PA 15233 · 412-781-4400</p><p><b>Ohio Yard</b> 300 Commerce Dr, Steubenville, OH 43952 · 740-282-1100</p><p>Copyright 2023 Tri-State Crane Rental, Inc.</p>' }) }),
    },
  },
];
