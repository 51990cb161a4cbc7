import type { LocalizedText } from '../../../i18n/locales';

/**
 * SPEC section 3's express carriers: id, name and the pinyin code (the code kuaidi100 and
 * most Chinese tracking services use, so links and future API lookups share it).
 */
export interface Carrier {
  id: number;
  code: string;
  name: LocalizedText;
}

export const CARRIERS: readonly Carrier[] = [
  { id: 1, code: 'shunfeng', name: { en: 'SF Express', 'zh-cn': '顺丰速运' } },
  { id: 2, code: 'yuantong', name: { en: 'YTO Express', 'zh-cn': '圆通速递' } },
  { id: 3, code: 'shentong', name: { en: 'STO Express', 'zh-cn': '申通快递' } },
  { id: 4, code: 'zhongtong', name: { en: 'ZTO Express', 'zh-cn': '中通快递' } },
  { id: 5, code: 'jtexpress', name: { en: 'J&T Express', 'zh-cn': '极兔速递' } },
  { id: 6, code: 'yunda', name: { en: 'Yunda Express', 'zh-cn': '韵达快递' } },
  { id: 7, code: 'jd', name: { en: 'JD Logistics', 'zh-cn': '京东物流' } },
  { id: 8, code: 'youzhengbk', name: { en: 'China Post Parcel', 'zh-cn': '邮政快递包裹' } },
  { id: 9, code: 'debangkuaidi', name: { en: 'Deppon Express', 'zh-cn': '德邦快递' } },
  { id: 10, code: 'shunfengkuaiyun', name: { en: 'SF Freight', 'zh-cn': '顺丰快运' } },
  { id: 11, code: 'danniao', name: { en: 'Danniao Logistics', 'zh-cn': '丹鸟物流' } },
];

export function findCarrier(code: string | null | undefined): Carrier | undefined {
  return CARRIERS.find((carrier) => carrier.code === code);
}

/** A public page where the buyer can follow the parcel. */
export function trackingUrl(carrierCode: string, trackingNo: string): string {
  return `https://www.kuaidi100.com/chaxun?com=${encodeURIComponent(carrierCode)}&nu=${encodeURIComponent(trackingNo)}`;
}
