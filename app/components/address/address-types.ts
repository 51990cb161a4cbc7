/** What the address pages get from their loaders (services.addresses / services.areas). */
export interface Address {
  id: number;
  country_code: string;
  country: string;
  province_id: string | null;
  province: string;
  city_id: string | null;
  city: string;
  detail: string;
  postal_code: string;
  contact_name: string;
  contact_phone: string;
  is_default: boolean;
  full_address: string;
}

export interface AreaOption {
  id: string;
  name: string;
}

/** A province/state; `cities` is the full list when the tree has it (mainland China), else fetched on demand. */
export interface AreaState extends AreaOption {
  cities?: AreaOption[];
}

export interface AreaCountry extends AreaOption {
  states: AreaState[];
}

export const MAX_ADDRESSES = 20;
