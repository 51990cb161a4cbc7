import { defineMessages } from '../define';

/** What the admin API's gate answers (server/http/admin-api.ts); each console area keeps its own file beside this one. */
export const adminMessages = defineMessages({
  en: {
    'admin.error.permission': 'Your role does not allow this. Ask an Owner for access',
    'admin.error.secondFactorRequired': 'Set up two-step sign-in in your profile before using the console',
  },
  'zh-cn': {
    'admin.error.permission': '您的角色无权执行此操作，请联系店主开通权限',
    'admin.error.secondFactorRequired': '请先在个人资料中设置两步验证，然后再使用后台',
  },
});
