export * from './site';
export * from './catalog';
export * from './customers';
export * from './addresses';
export * from './cart';
export * from './orders';
export * from './shipping';
export * from './coupons';
