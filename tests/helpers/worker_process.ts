/*
 * A worker process of this app (`ace jobs:work`) on the suite's database, for
 * the fault tests that kill one mid-job: the queues it works, and settings the
 * test needs on top (a shorter lease). Its SMTP and public URL are the suite's.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { settings } from '#core/settings'

/** `nodeFlags` go before the script (e.g. the production heap flags, an `--import`). */
export function startWorkerProcess(
  queues: string[],
  extraEnv: Record<string, string> = {},
  nodeFlags: string[] = []
): ChildProcess {
  const args = [...nodeFlags, 'ace.js', 'jobs:work', '--queues', queues.join(',')]
  return spawn(process.execPath, args, {
    cwd: app.makePath(),
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: env.get('DATABASE_URL'),
      PUBLIC_URL: settings.publicUrl,
      SMTP_HOST: env.get('SMTP_HOST') ?? '127.0.0.1',
      SMTP_PORT: String(env.get('SMTP_PORT') ?? 2526),
      OUTBOUND_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    stdio: 'ignore',
  })
}

/** SIGKILLs the process (if it still runs) and waits until it is gone. */
export async function killProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited
}
