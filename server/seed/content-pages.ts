import type { LocalizedText } from '../../i18n/locales';
import type { ContentBlock } from '../shared/content-blocks';
import type { ArtKind } from './art';

export interface SeedContentPage {
  slug: string;
  title: LocalizedText;
  summary: LocalizedText;
  blocks: { en: ContentBlock[]; 'zh-cn': ContentBlock[] };
}

export interface DemoVideo {
  title: LocalizedText;
  duration: string;
  /** What the poster shows: standing things on the studio table. */
  scene: { tint: string; items: Array<{ art: ArtKind; color: string }> };
}

export const posterName = (index: number) => `video-${index + 1}`;
export const POSTER_SIZE = { width: 1280, height: 720 } as const;

/** No video files ship with the demo: the page shows these posters with titles and durations. */
export const DEMO_VIDEOS: DemoVideo[] = [
  {
    title: { en: 'A morning at the wheel: throwing our stoneware mugs', 'zh-cn': '拉坯机前的一个早晨：制作粗陶马克杯' },
    duration: '6:42',
    scene: {
      tint: '#c98b6b',
      items: [
        { art: 'mug', color: '#9caf88' },
        { art: 'bowl', color: '#e9e3d7' },
        { art: 'mug', color: '#34506b' },
      ],
    },
  },
  {
    title: { en: 'Brewing West Lake Longjing the slow way', 'zh-cn': '慢慢泡一杯西湖龙井' },
    duration: '4:15',
    scene: {
      tint: '#7f9164',
      items: [
        { art: 'teaTin', color: '#6f8f5a' },
        { art: 'glassTeapot', color: '#c9d6d2' },
        { art: 'teaCups', color: '#a8c3b1' },
      ],
    },
  },
  {
    title: { en: 'Folding a paper lamp shade, pleat by pleat', 'zh-cn': '一褶一褶，折出一盏纸灯罩' },
    duration: '8:03',
    scene: {
      tint: '#d8c3a0',
      items: [
        { art: 'vase', color: '#eeeae2' },
        { art: 'lamp', color: '#34506b' },
      ],
    },
  },
  {
    title: { en: 'Waxing canvas for a rucksack that lasts', 'zh-cn': '为帆布上蜡：做一只经久耐用的双肩包' },
    duration: '5:27',
    scene: {
      tint: '#8a6a45',
      items: [
        { art: 'tote', color: '#dccfb6' },
        { art: 'backpack', color: '#8a6a45' },
      ],
    },
  },
  {
    title: { en: 'How we pack your order for a long journey', 'zh-cn': '我们如何为你的包裹打包远行' },
    duration: '3:08',
    scene: {
      tint: '#c8a273',
      items: [
        { art: 'candle', color: '#d9a441' },
        { art: 'basket', color: '#c9a26b' },
        { art: 'teaPouch', color: '#7c8b5a' },
      ],
    },
  },
];

const videoBlocks = (locale: 'en' | 'zh-cn'): ContentBlock[] =>
  DEMO_VIDEOS.map((video, index) => ({
    type: 'video',
    title: video.title[locale],
    poster: `/images/demo/${posterName(index)}.webp`,
    duration: video.duration,
  }));

export const DEMO_CONTENT_PAGES: SeedContentPage[] = [
  {
    slug: 'videos',
    title: { en: 'Videos', 'zh-cn': '视频' },
    summary: {
      en: 'Short films from the studio: how our things are made, brewed, packed and cared for.',
      'zh-cn': '来自工作室的短片：我们的物件如何被制作、冲泡、打包与保养。',
    },
    blocks: {
      en: [
        {
          type: 'paragraph',
          text: 'We film a little of everything we do, from the first lump of clay to the moment a parcel is taped shut. New films every month.',
        },
        ...videoBlocks('en'),
      ],
      'zh-cn': [
        { type: 'paragraph', text: '从第一块陶泥到包裹封箱的那一刻，我们把做事的过程都拍了一点下来。每月更新。' },
        ...videoBlocks('zh-cn'),
      ],
    },
  },
  {
    slug: 'our-story',
    title: { en: 'Our Story', 'zh-cn': '我们的故事' },
    summary: {
      en: 'A small studio in Hangzhou making and choosing things that are meant to be used for a long time.',
      'zh-cn': '杭州的一间小工作室，制作和挑选那些值得长久使用的物件。',
    },
    blocks: {
      en: [
        { type: 'heading', text: 'Light and thread' },
        {
          type: 'paragraph',
          text: 'Lumen & Loom began in 2016 as a ceramics bench in a rented room near the West Lake tea hills. One of us threw mugs and bowls; the other had spent ten years sourcing cotton and linen for clothing brands. We named the studio after the two things we cared about most: the light a good room is filled with, and the thread that holds good things together.',
        },
        {
          type: 'paragraph',
          text: 'Today we are a team of eleven. We still throw every mug, bowl and vase in our own studio, and we work with a handful of family workshops for everything else: a knitting mill in Tongxiang, a leather workshop in Guangzhou, tea growers in Meijiawu, Anxi, Fuding and Fengqing whom we visit every spring.',
        },
        { type: 'heading', text: 'What we believe' },
        {
          type: 'list',
          items: [
            'Make fewer things, and make them well enough to last for years.',
            'Choose natural materials that age beautifully rather than wear out.',
            'Know the people who make what we sell, and pay them fairly.',
            'Pack with paper, not plastic, and ship each order only once.',
          ],
        },
        { type: 'heading', text: 'From our studio to your door' },
        {
          type: 'paragraph',
          text: 'Since 2020 we have shipped to customers in more than thirty countries. Every order is checked, wrapped and packed by hand in Hangzhou, and every parcel carries a handwritten note. If something is not right when it arrives, write to us: a real person will answer, usually within a day.',
        },
      ],
      'zh-cn': [
        { type: 'heading', text: '光与线' },
        {
          type: 'paragraph',
          text: '光织良品始于 2016 年，最初只是西湖茶山附近一间出租屋里的一张陶艺工作台。我们中一人拉坯做杯碗，另一人曾为服装品牌采购棉麻面料十年。我们用最在意的两样东西为工作室命名：好房间里充盈的光，以及把好东西连在一起的线。',
        },
        {
          type: 'paragraph',
          text: '如今我们是一个十一人的团队。每一只杯、碗和花瓶仍在自己的工作室里拉坯烧制，其余的物件则与几家家庭作坊合作：桐乡的针织厂、广州的皮具工坊，以及我们每年春天都会拜访的梅家坞、安溪、福鼎和凤庆的茶农。',
        },
        { type: 'heading', text: '我们相信' },
        {
          type: 'list',
          items: [
            '少做一些，但要做得足够好，能用很多年。',
            '选择会优雅老去、而不是被用坏的天然材料。',
            '认识每一位制作者，并给予公平的报酬。',
            '用纸而不是塑料包装，每笔订单只发一次货。',
          ],
        },
        { type: 'heading', text: '从工作室到你家门口' },
        {
          type: 'paragraph',
          text: '自 2020 年起，我们已经把包裹寄往三十多个国家。每一笔订单都在杭州经人工检查、包裹与装箱，每个包裹里都有一张手写卡片。如果收到时有任何不妥，请写信给我们：会有真人回复，通常在一天之内。',
        },
      ],
    },
  },
  {
    slug: 'faq',
    title: { en: 'Frequently Asked Questions', 'zh-cn': '常见问题' },
    summary: {
      en: 'Shipping abroad, customs, returns, payment and tracking: the answers to what we are asked most.',
      'zh-cn': '海外配送、关税、退换货、支付与物流追踪：大家最常问的问题都在这里。',
    },
    blocks: {
      en: [
        { type: 'heading', text: 'Shipping' },
        {
          type: 'qa',
          question: 'Which countries do you ship to?',
          answer:
            'We ship to the United States, the United Kingdom, Canada, Australia, Germany, France, Japan, Singapore, Malaysia and mainland China. The country list at checkout is always up to date; if yours is missing, write to us and we will see what we can do.',
        },
        {
          type: 'qa',
          question: 'How long will my parcel take to arrive?',
          answer:
            'Orders leave our Hangzhou studio within 2 working days. Standard international delivery then takes 7–12 working days to most destinations and 3–5 days within mainland China. Remote areas and customs checks can add a few days.',
        },
        {
          type: 'qa',
          question: 'How much does shipping cost?',
          answer:
            'The shipping fee is calculated from the weight of your order and the destination and is shown on the order confirmation page before you pay. Products marked "Free shipping" ship free to every destination we serve.',
        },
        { type: 'heading', text: 'Customs and duties' },
        {
          type: 'qa',
          question: 'Will I have to pay customs duties or import tax?',
          answer:
            'Possibly. Orders shipped outside China may be charged import duties and taxes (such as VAT or GST) by your country once they arrive. These charges are set by your local customs office, are not included in our prices and are paid by the recipient. Many countries do not charge duty on small orders below a threshold.',
        },
        {
          type: 'qa',
          question: 'Can you mark my order as a gift or declare a lower value?',
          answer:
            'No. We must declare the true contents and value of every parcel. A false declaration can lead to the parcel being held or returned, and to fines for you.',
        },
        { type: 'heading', text: 'Returns and exchanges' },
        {
          type: 'qa',
          question: 'What is your return policy?',
          answer:
            'Items marked "7-day no-reason return" can be returned within 7 days of delivery for any reason, as long as they are unused and in their original packaging. Start a return from the order page under After-Sales. Opened food and tea, socks and scented products cannot be returned unless they arrive damaged.',
        },
        {
          type: 'qa',
          question: 'Something arrived broken. What should I do?',
          answer:
            'We are sorry. Please take a photo of the item and the box within 48 hours of delivery and open an after-sales request from your order. We will send a replacement or a full refund, and you will not need to send the broken piece back.',
        },
        {
          type: 'qa',
          question: 'Who pays for return shipping, and when will I get my refund?',
          answer:
            'Return shipping is free if the item is faulty or we sent the wrong thing; for no-reason returns the buyer pays it. Refunds go back to the original payment method within 3 working days of the return reaching us; your bank may take a few more days to show it.',
        },
        { type: 'heading', text: 'Payment and orders' },
        {
          type: 'qa',
          question: 'Which payment methods do you accept?',
          answer:
            'We accept major credit and debit cards (Visa, Mastercard, American Express), processed securely by our payment provider; we never see or store your card number. Prices are charged in Chinese yuan (CNY); the amounts in other currencies are a guide and your bank converts the final charge.',
        },
        {
          type: 'qa',
          question: 'How long do I have to pay for an order?',
          answer:
            'Unpaid orders are held for a short time, shown as a countdown on the payment page; after that they are cancelled automatically and the items go back into stock. You can also cancel an unpaid order yourself from My Orders.',
        },
        {
          type: 'qa',
          question: 'How do I track my order?',
          answer:
            'As soon as your parcel leaves the studio, the carrier and tracking number appear on the order page under My Orders, and we send you an email. Tracking usually updates within 24 hours of dispatch.',
        },
      ],
      'zh-cn': [
        { type: 'heading', text: '配送' },
        {
          type: 'qa',
          question: '你们可以寄到哪些国家？',
          answer:
            '我们可寄往美国、英国、加拿大、澳大利亚、德国、法国、日本、新加坡、马来西亚及中国大陆。结算页的国家列表始终是最新的；如果没有你所在的国家，请写信给我们，我们会想办法。',
        },
        {
          type: 'qa',
          question: '包裹多久能到？',
          answer:
            '订单会在 2 个工作日内从杭州工作室发出。寄往大多数国家的标准国际配送需 7–12 个工作日，中国大陆境内为 3–5 天。偏远地区或海关查验可能会多花几天。',
        },
        {
          type: 'qa',
          question: '运费怎么计算？',
          answer:
            '运费根据订单重量和收货地计算，在付款前的确认订单页面会明确显示。标注“包邮”的商品寄往我们服务的所有地区均免运费。',
        },
        { type: 'heading', text: '海关与关税' },
        {
          type: 'qa',
          question: '我需要支付关税或进口税吗？',
          answer:
            '有可能。寄往中国以外的订单到达后，所在国家可能会征收进口关税和税费（如增值税或消费税）。这些费用由当地海关决定，不包含在我们的售价中，由收件人支付。许多国家对低于一定金额的小额包裹免征关税。',
        },
        {
          type: 'qa',
          question: '可以把订单申报为礼物或申报较低的价值吗？',
          answer:
            '不可以。我们必须如实申报每个包裹的内容和价值。虚假申报可能导致包裹被扣留或退回，你也可能因此被罚款。',
        },
        { type: 'heading', text: '退货与换货' },
        {
          type: 'qa',
          question: '你们的退货政策是什么？',
          answer:
            '标注“七天无理由退货”的商品，在签收后 7 天内、未使用且包装完好的情况下，可无理由退货。请在订单页面的“售后”中发起申请。已拆封的食品与茶叶、袜子以及香氛类商品，除非到货破损，否则不支持退货。',
        },
        {
          type: 'qa',
          question: '收到的东西破损了怎么办？',
          answer:
            '非常抱歉。请在签收后 48 小时内拍下商品和外箱的照片，并在订单中提交售后申请。我们会为你补发或全额退款，破损的物品无需寄回。',
        },
        {
          type: 'qa',
          question: '退货运费由谁承担？退款多久到账？',
          answer:
            '如商品有质量问题或发错货，退货运费由我们承担；无理由退货的运费由买家承担。退货到达后 3 个工作日内原路退款，银行入账可能还需几天。',
        },
        { type: 'heading', text: '支付与订单' },
        {
          type: 'qa',
          question: '支持哪些付款方式？',
          answer:
            '我们支持主流信用卡和借记卡（Visa、Mastercard、American Express），由支付服务商安全处理，我们不会看到或保存你的卡号。订单以人民币（CNY）结算，其他币种金额仅供参考，最终扣款由你的银行换算。',
        },
        {
          type: 'qa',
          question: '下单后需要在多长时间内付款？',
          answer:
            '未付款订单会保留一小段时间，付款页面会显示倒计时；超时后订单自动取消，商品库存随之释放。你也可以在“我的订单”中自行取消未付款订单。',
        },
        {
          type: 'qa',
          question: '如何查询物流？',
          answer:
            '包裹一离开工作室，快递公司和运单号就会显示在“我的订单”的订单详情中，同时我们会给你发送邮件。物流信息通常在发货后 24 小时内更新。',
        },
      ],
    },
  },
  {
    slug: 'contact-us',
    title: { en: 'Contact Us', 'zh-cn': '联系我们' },
    summary: {
      en: 'Questions about an order, a product or a wholesale enquiry: we read every message.',
      'zh-cn': '订单、商品或批发合作相关的问题：每一封来信我们都会认真阅读。',
    },
    blocks: {
      en: [
        {
          type: 'paragraph',
          text: 'The quickest way to reach us is by email. We answer within one working day, usually much sooner. Please include your order number if your question is about an order.',
        },
        { type: 'heading', text: 'Customer care' },
        {
          type: 'list',
          items: [
            'Email: hello@lumenloom.example',
            'Phone: +86 571 8888 6666',
            'Hours: Monday to Friday, 9:00–18:00 China Standard Time (UTC+8)',
            'Wholesale and press: studio@lumenloom.example',
          ],
        },
        { type: 'heading', text: 'Studio and showroom' },
        {
          type: 'list',
          items: [
            'Lumen & Loom Studio, 2nd floor, 18 Longjing Road, Xihu District, Hangzhou, Zhejiang 310013, China',
            'Showroom open Saturday and Sunday, 10:00–17:00; please book a visit by email on weekdays.',
          ],
        },
        {
          type: 'paragraph',
          text: 'Please do not send returns to the studio address without opening an after-sales request first: returns go to our warehouse, and the address is shown in the request.',
        },
      ],
      'zh-cn': [
        {
          type: 'paragraph',
          text: '最快的联系方式是发邮件。我们会在一个工作日内回复，通常更快。如果问题与订单有关，请附上订单号。',
        },
        { type: 'heading', text: '客户服务' },
        {
          type: 'list',
          items: [
            '邮箱：hello@lumenloom.example',
            '电话：+86 571 8888 6666',
            '服务时间：周一至周五 9:00–18:00（北京时间，UTC+8）',
            '批发与媒体合作：studio@lumenloom.example',
          ],
        },
        { type: 'heading', text: '工作室与展厅' },
        {
          type: 'list',
          items: [
            '光织良品工作室：浙江省杭州市西湖区龙井路 18 号 2 楼，邮编 310013',
            '展厅周六、周日 10:00–17:00 开放；工作日请通过邮件预约参观。',
          ],
        },
        {
          type: 'paragraph',
          text: '退货请勿直接寄往工作室地址，请先提交售后申请：退货寄往我们的仓库，地址会显示在申请中。',
        },
      ],
    },
  },
];
