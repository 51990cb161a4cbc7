export declare const TEST_CAPTCHA: string;

type DemoAddress = {
  country_code: string;
  province_id: string;
  city_id?: string;
  city?: string;
  detail: string;
  postal_code: string;
  contact_name: string;
  contact_phone: string;
};

export declare const chinaAddress: DemoAddress;
export declare const usAddress: DemoAddress;
export declare const germanAddress: DemoAddress;
