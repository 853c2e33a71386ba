import App from '#apps/models/app'

/** A new token for an existing app; its other tokens stay valid until revoked. */
export default class IssueToken {
  async execute(appId: number) {
    const app = await App.find(appId)
    if (!app) return { ok: false as const, reason: 'app_not_found' as const }
    const token = await App.accessTokens.create(app, ['*'], { name: `token-${Date.now()}` })
    return { ok: true as const, app, token: token.value!.release() }
  }
}
