import { defineMessages } from '../define';

/** Human names of request fields, used inside validation messages ('{field} is required'). */
export const fieldMessages = defineMessages({
  en: {
    'field.id': 'ID',
    'field.intent': 'Action',
    'field.page': 'Page',
    'field.page_size': 'Page size',
    'field.email': 'Email',
    'field.password': 'Password',
    'field.username': 'Username',
    'field.mobile': 'Mobile number',
    'field.code': 'Verification code',
    'field.dots': 'Captcha answer',
    'field.key': 'Captcha ID',
    'field.body': 'Request body',
    'field.querystring': 'Query string',
    'field.params': 'Address parameters',
    'field.headers': 'Request headers',
  },
  'zh-cn': {
    'field.id': 'ID',
    'field.intent': '操作',
    'field.page': '页码',
    'field.page_size': '每页数量',
    'field.email': '邮箱',
    'field.password': '密码',
    'field.username': '用户名',
    'field.mobile': '手机号',
    'field.code': '验证码',
    'field.dots': '图形验证码',
    'field.key': '验证码编号',
    'field.body': '请求内容',
    'field.querystring': '查询参数',
    'field.params': '路径参数',
    'field.headers': '请求头',
  },
});
