export * from './site';
export * from './catalog';
export * from './customers';
