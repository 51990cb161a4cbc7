// Fixtures shared by the tests and the screenshot script.

/** The captcha answer a shop started with CAPTCHA_TEST_ANSWER set to it accepts (never in production). */
export const TEST_CAPTCHA = '2468';

// Addresses that pass every check: one in Guangdong (CN) with a mainland mobile number, one in
// California (US) and one in Berlin (DE) with a typed city.

export const chinaAddress = {
  country_code: 'CN',
  province_id: 'CN-GD',
  city_id: 'CN-GD-440100',
  detail: '88 Tianhe Road, Building 3, Room 1201',
  postal_code: '510000',
  contact_name: 'Li Lei',
  contact_phone: '13812345678',
};

export const usAddress = {
  country_code: 'US',
  province_id: 'US-CA',
  city: 'San Francisco',
  detail: '1 Market Street, Suite 300',
  postal_code: '94105',
  contact_name: 'Jane Doe',
  contact_phone: '+1 415 555 0132',
};

export const germanAddress = {
  country_code: 'DE',
  province_id: 'DE-BE',
  city: 'Berlin',
  detail: 'Unter den Linden 77',
  postal_code: '10117',
  contact_name: 'Erika Mustermann',
  contact_phone: '+49 30 901820',
};
