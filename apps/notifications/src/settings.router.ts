import { Router } from 'express';
import { NOTIFICATIONS_API } from '@gl/contracts';
import { isHigherTier, requireNamespace, requireUser, route, sendJson } from '@gl/service-kit';
import { presentGlobalSetting, presentSetting, type SettingsService } from './settings.service';

/** lib/api/notification_settings.rb: global, group and project settings of the current user. */
export function createSettingsRouter(settings: SettingsService): Router {
  const router = Router();

  route(router, NOTIFICATIONS_API.getGlobalNotificationSettings, async ({ res, ctx }) => {
    const principal = requireUser(ctx);
    const view = await settings.find(principal.id, 'global', null);
    sendJson(res, 200, presentGlobalSetting(view, isHigherTier(ctx), await settings.addressesOf(principal)));
  });

  route(router, NOTIFICATIONS_API.updateGlobalNotificationSettings, async ({ res, ctx, params }) => {
    const principal = requireUser(ctx);
    const update = params();
    const addresses = await settings.addressesOf(principal);
    const view = await settings.updateGlobal(principal.id, update, addresses, isHigherTier(ctx));
    sendJson(res, 200, presentGlobalSetting(view, isHigherTier(ctx), addresses));
  });

  const sources = [
    [
      'group',
      NOTIFICATIONS_API.getGroupNotificationSettings,
      NOTIFICATIONS_API.updateGroupNotificationSettings,
    ],
    [
      'project',
      NOTIFICATIONS_API.getProjectNotificationSettings,
      NOTIFICATIONS_API.updateProjectNotificationSettings,
    ],
  ] as const;
  for (const [kind, get, update] of sources) {
    route(router, get, async ({ res, ctx }) => {
      const principal = requireUser(ctx);
      const namespace = requireNamespace(ctx, kind);
      const view = await settings.find(principal.id, kind, namespace.id);
      sendJson(res, 200, presentSetting(view, isHigherTier(ctx)));
    });

    route(router, update, async ({ res, ctx, params }) => {
      const principal = requireUser(ctx);
      const namespace = requireNamespace(ctx, kind);
      const view = await settings.updateSource(principal.id, kind, namespace.id, params(), isHigherTier(ctx));
      sendJson(res, 200, presentSetting(view, isHigherTier(ctx)));
    });
  }

  return router;
}
