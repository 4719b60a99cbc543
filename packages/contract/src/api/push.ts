import {
  alarmPushListInput,
  eventCfg,
  msgPlatform,
  msgTemplate,
  noticeTemplate,
  pushLink,
  pushPlatform,
  pushPlatformTestInput,
  pushRecordListInput,
  pushRecordRow,
  pushTemplate,
  pushTemplateTestInput,
} from '../schemas/push.js';
import { crudApi, def } from './define.js';

/** Push and message platforms, templates, links, event configs and push records (issue 8). */
export const PUSH_API = {
  ...crudApi('pushPlatform', 'v2/push/platform', ['applist/flatform'], pushPlatform, 'Push platforms (SMS, email, push)'),
  ...crudApi('msgPlatform', 'v2/push/admin/msg/platform', ['applist/flatform'], msgPlatform, "Apps' vendor message platforms"),
  ...crudApi('pushTemplate', 'v2/push/template', ['applist/template'], pushTemplate, 'Push templates'),
  ...crudApi('pushLink', 'v2/push/link', ['applist/template'], pushLink, 'Push links (event → template + platform)'),
  ...crudApi('noticeTemplate', 'v2/user/notice/user/template', ['applist/notice_template'], noticeTemplate, 'Notice templates'),
  ...crudApi('msgTemplate', 'v2/umh/admin/msg/template', ['applist/msg_mng'], msgTemplate, 'Message templates'),
  ...crudApi('eventCfg', 'v2/umh/admin/msg/eventcfg', ['applist/msg_mng'], eventCfg, 'Message event configs'),
  pushPlatformTest: def(
    'v2/push/platform/test',
    ['applist/flatform'],
    'action',
    pushPlatformTestInput,
    'Send a test message through a platform now; answers its push record (state sent or failed, with the error)',
    pushRecordRow,
  ),
  pushTemplateTest: def(
    'v2/push/template/test',
    ['applist/template'],
    'action',
    pushTemplateTestInput,
    'Send a template rendered with sample values through a platform now; answers its push record',
    pushRecordRow,
  ),
  pushRecordList: def(
    'v2/push/record/list',
    ['applist/record'],
    'list',
    pushRecordListInput,
    'Push records: every delivery attempt',
    pushRecordRow,
  ),
  alarmPushList: def(
    'v2/umh/admin/alarmpush/list',
    ['applist/alarm'],
    'list',
    alarmPushListInput,
    'Pushes device alarms caused (push records of alarm events; `alarm_id` narrows to one alarm)',
    pushRecordRow,
  ),
};
