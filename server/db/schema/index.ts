export * from './site';
export * from './catalog';
export * from './customers';
export * from './payments';
