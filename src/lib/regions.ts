/**
 * The regions written after a town in an address: US states, Canadian provinces, Australian states, the UK's counties and
 * nations, Ireland's counties; by code or by name, with their country.
 */
export const US_STATES = 'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC'.split(' ');
export const US_STATE_NAMES = 'Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|New Mexico|New York|North Carolina|North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode Island|South Carolina|South Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington|West Virginia|Wisconsin|Wyoming';
export const CA_PROVINCES = 'BC AB SK MB ON QC NB NS PE PEI NL YT NT NU'.split(' ');
export const CA_PROVINCE_NAMES = 'British Columbia|Alberta|Saskatchewan|Manitoba|Ontario|Quebec|Québec|New Brunswick|Nova Scotia|Prince Edward Island|Newfoundland and Labrador|Newfoundland|Yukon|Northwest Territories|Nunavut';
export const AU_STATES = 'NSW VIC QLD SA WA TAS NT ACT'.split(' ');
// Counties and nations written between a UK town and its postcode.
export const UK_AREAS = new Set((
  'Surrey|Kent|Essex|Sussex|East Sussex|West Sussex|Hampshire|Berkshire|Buckinghamshire|Oxfordshire|Gloucestershire|Wiltshire|Somerset|Dorset|Devon|Cornwall|Avon|Herefordshire|Worcestershire|Warwickshire|West Midlands|Staffordshire|Shropshire|Cheshire|Lancashire|Merseyside|Greater Manchester|West Yorkshire|South Yorkshire|North Yorkshire|East Yorkshire|East Riding of Yorkshire|Yorkshire|County Durham|Durham|Northumberland|Cumbria|Tyne and Wear|Lincolnshire|Nottinghamshire|Derbyshire|Leicestershire|Rutland|Northamptonshire|Cambridgeshire|Norfolk|Suffolk|Hertfordshire|Bedfordshire|Middlesex|Greater London|Isle of Wight|England|Scotland|Wales|Northern Ireland|United Kingdom|UK|GB|Lanarkshire|Fife|Midlothian|West Lothian|East Lothian|Aberdeenshire|Highland|Perthshire|Ayrshire|Renfrewshire|Dunbartonshire|Glamorgan|South Glamorgan|Vale of Glamorgan|Gwent|Powys|Dyfed|Gwynedd|Clwyd|Pembrokeshire|Carmarthenshire|County Antrim|County Down|County Tyrone|County Armagh|Co. Antrim|Co. Down|' +
    // former postal counties still written in addresses ("Billingham, Cleveland, TS23"), and the usual short forms
    'Cleveland|Humberside|Cumberland|Westmorland|Tyne & Wear|Flintshire|Denbighshire|Monmouthshire|Ceredigion|Anglesey|Hants|Herts|Bucks|Berks|Oxon|Glos|Wilts|Worcs|Warks|Staffs|Leics|Northants|Notts|Cambs|Lincs|Lancs|Yorks|Middx'
).toLowerCase().split('|'));

// Brazil's states, written after the town ("São Bernardo do Campo - SP")
export const BR_STATES = 'AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO'.split(' ');

// Ireland's counties, written after the town ("Tullamore, Co. Offaly")
export const IE_COUNTIES = 'Carlow|Cavan|Clare|Cork|Donegal|Dublin|Galway|Kerry|Kildare|Kilkenny|Laois|Leitrim|Limerick|Longford|Louth|Mayo|Meath|Monaghan|Offaly|Roscommon|Sligo|Tipperary|Waterford|Westmeath|Wexford|Wicklow';

const REGION_NAMES = new Set(`${US_STATE_NAMES}|${CA_PROVINCE_NAMES}`.toLowerCase().split('|'));

/** A US state or Canadian province written out ("California", "Ontario"): a region, unless a town of that name is meant. */
export function isRegionName(name: string): boolean {
  return REGION_NAMES.has(name.trim().toLowerCase());
}

// the codes are in the order of the names (DC, last, has no name in the list)
const US_STATE_CODE = new Map(US_STATE_NAMES.toLowerCase().split('|').map((n, i) => [n, US_STATES[i]!] as const));
const CA_PROVINCE_NAME_SET = new Set(CA_PROVINCE_NAMES.toLowerCase().split('|'));

/**
 * The country (and, for a US state, its two-letter code, which GeoNames writes as the town's region) of a region written
 * after a town: a US state, Canadian province or Australian state by code ("NC", "BC", "QLD", as written in capitals) or
 * name ("North Carolina", "Ontario"), or a county or nation of the UK ("Surrey", "Scotland"). Undefined for anything else.
 */
export function regionOf(name: string): { country: string; state?: string } | undefined {
  const s = name.trim().replace(/\.$/, '');
  if (US_STATES.includes(s)) return { country: 'US', state: s };
  const key = s.toLowerCase();
  const state = US_STATE_CODE.get(key);
  if (state) return { country: 'US', state };
  if (CA_PROVINCES.includes(s) || CA_PROVINCE_NAME_SET.has(key)) return { country: 'CA' };
  if (AU_STATES.includes(s)) return { country: 'AU' };
  if (UK_AREAS.has(key) && !/^(uk|gb|united kingdom)$/.test(key)) return { country: 'GB' };
  return undefined;
}
