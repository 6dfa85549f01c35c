import { Router, type Request } from 'express';
import {
  updateGlobalNotificationSettingParams,
  updateNotificationSettingParams,
  type Principal,
} from '@gl/contracts';
import {
  collectParams,
  isHigherTier,
  parseParams,
  requireNamespace,
  requireUser,
  sendJson,
} from '@gl/service-kit';
import type { NotificationsModels } from './models';
import {
  presentGlobalSetting,
  presentSetting,
  type SettingsService,
  type UserAddresses,
} from './settings.service';

/**
 * The caller's addresses: the primary one the gateway signs into the context, plus what the identity
 * events said (secondary addresses added through POST /users/:id/emails).
 */
async function addressesOf(models: NotificationsModels, principal: Principal): Promise<UserAddresses> {
  const user = await models.users.findById(principal.id).lean();
  const all = [principal.email, ...(user ? [user.email, ...user.emails] : [])].filter(Boolean);
  return { primary: principal.email, all: [...new Set(all)] };
}

/** lib/api/notification_settings.rb: global, group and project settings of the current user. */
export function createSettingsRouter(models: NotificationsModels, settings: SettingsService): Router {
  const router = Router();

  router.get('/notification_settings', async (req, res) => {
    const principal = requireUser(req.ctx);
    const view = await settings.find(principal.id, 'global', null);
    sendJson(
      res,
      200,
      presentGlobalSetting(view, isHigherTier(req.ctx), await addressesOf(models, principal)),
    );
  });

  router.put('/notification_settings', async (req, res) => {
    const principal = requireUser(req.ctx);
    const params = parseParams(updateGlobalNotificationSettingParams, collectParams(req));
    const addresses = await addressesOf(models, principal);
    const view = await settings.updateGlobal(principal.id, params, addresses, isHigherTier(req.ctx));
    sendJson(res, 200, presentGlobalSetting(view, isHigherTier(req.ctx), addresses));
  });

  for (const kind of ['group', 'project'] as const) {
    const path = `/${kind}s/:id/notification_settings`;
    const sourceOf = (req: Request) => {
      const principal = requireUser(req.ctx);
      return { principal, namespace: requireNamespace(req.ctx, kind) };
    };

    router.get(path, async (req, res) => {
      const { principal, namespace } = sourceOf(req);
      const view = await settings.find(principal.id, kind, namespace.id);
      sendJson(res, 200, presentSetting(view, isHigherTier(req.ctx)));
    });

    router.put(path, async (req, res) => {
      const { principal, namespace } = sourceOf(req);
      const params = parseParams(updateNotificationSettingParams, collectParams(req));
      const view = await settings.updateSource(
        principal.id,
        kind,
        namespace.id,
        params,
        isHigherTier(req.ctx),
      );
      sendJson(res, 200, presentSetting(view, isHigherTier(req.ctx)));
    });
  }

  return router;
}
