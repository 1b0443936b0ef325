import path from 'node:path';

export const FEATURE_NAMES = [
  'search',
  'selection',
  'signup',
  'ingest',
  'enterprise',
  'pdf_export',
  'pagexml_export',
  'alto_export',
  'docx_export',
  'csv_export',
] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];
export type Features = Record<FeatureName, boolean>;

export const DEFAULT_FEATURES =
  'search,selection,signup,pdf_export,pagexml_export,alto_export,docx_export,csv_export';

export type BannerStyle = 'info' | 'warning' | 'error' | 'success';
export interface Banner {
  style: BannerStyle;
  message: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** A postgres:// URL, or null for the SQLite file in the data dir. */
  databaseUrl: string | null;
  /** PostgreSQL schema to work in (tests isolate themselves this way); null = the default. */
  databaseSchema: string | null;
  features: Features;
  demo: boolean;
  smtpUrl: string | null;
  banner: Banner | null;
  tlsCert: string | null;
  tlsKey: string | null;
  /** Origin used in mailed links (e.g. https://folia.example.org); null = the request's host. */
  publicUrl: string | null;
  /**
   * Other sites trusted with credentialed CORS on private data, besides the server's own origin
   * (FOLIA_CORS_ORIGINS, comma-separated origins). Public projects' data answers any origin.
   */
  corsOrigins: string[];
  /** Serve the built PWA from this folder when it exists. */
  distDir: string;
  logger: boolean;
  /** Seconds without a heartbeat after which an agent is lost and its tasks are requeued. */
  agentTimeoutS: number;
  /** Megabytes of rendered IIIF outputs kept in memory in front of the disk cache (0: none). */
  iiifMemoryMb: number;
  /** JPEG quality of pyramids stored at import (never above a JPEG source's) and of IIIF outputs. */
  iiifJpegQuality: number;
  /**
   * FOLIA_SECRET_KEY: the AES-256-GCM key that encrypts workers' secrets at rest (32 bytes).
   * Required in the enterprise edition, which stores secrets; null elsewhere when unset.
   */
  secretsKey: Buffer | null;
}

export function parseFeatures(list: string): Features {
  const wanted = new Set(
    list
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
  for (const name of wanted) {
    if (!(FEATURE_NAMES as readonly string[]).includes(name)) {
      throw new Error(
        `FOLIA_FEATURES: unknown feature "${name}" (known: ${FEATURE_NAMES.join(', ')})`,
      );
    }
  }
  return Object.fromEntries(FEATURE_NAMES.map((name) => [name, wanted.has(name)])) as Features;
}

export function parseBanner(json: string | undefined): Banner | null {
  if (!json) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error(
      'FOLIA_BANNER must be JSON such as {"style":"info","message":"Maintenance at 6pm"}',
    );
  }
  const banner = value as Partial<Banner> | null;
  const styles: BannerStyle[] = ['info', 'warning', 'error', 'success'];
  if (
    !banner ||
    typeof banner.message !== 'string' ||
    !styles.includes(banner.style as BannerStyle)
  ) {
    throw new Error('FOLIA_BANNER needs "style" (info, warning, error or success) and "message"');
  }
  return { style: banner.style as BannerStyle, message: banner.message };
}

function parsePublicUrl(value: string | undefined): string | null {
  if (!value?.trim()) return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`FOLIA_PUBLIC_URL: not a URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error('FOLIA_PUBLIC_URL must start with http:// or https://');
  }
  return url.origin;
}

export function parseCorsOrigins(value: string | undefined): string[] {
  const origins: string[] = [];
  for (const item of (value ?? '').split(',')) {
    const text = item.trim();
    if (!text) continue;
    let url: URL | null = null;
    try {
      url = new URL(text);
    } catch {
      url = null;
    }
    // An origin only: scheme, host and port, as browsers send it in the Origin header.
    if (
      !url ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      url.pathname !== '/' ||
      url.search ||
      url.hash ||
      url.username
    ) {
      throw new Error(
        `FOLIA_CORS_ORIGINS: "${text}" is not an origin such as https://viewer.example.org`,
      );
    }
    origins.push(url.origin);
  }
  return origins;
}

function parseAgentTimeout(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 30;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new Error(`FOLIA_AGENT_TIMEOUT_S: not a positive number of seconds: ${value}`);
  }
  return seconds;
}

/** FOLIA_IIIF_MEMORY_MB: room for rendered tiles kept in memory; 0 keeps none. */
function parseIiifMemory(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 64;
  const megabytes = Number(value);
  if (!Number.isInteger(megabytes) || megabytes < 0) {
    throw new Error(`FOLIA_IIIF_MEMORY_MB: not a whole number of megabytes: ${value}`);
  }
  return megabytes;
}

/**
 * FOLIA_IIIF_JPEG_QUALITY, 85 unless told (what tiles were rendered at before it was a setting).
 * 75, IIPImage's default, nearly halves tiles and pyramids (bench/iiif.bench.ts, Bronod scans:
 * 16.4 KiB a tile and 2.5 MB a page against 28.3 KiB and 4.3 MB at 85; 42.9 dB PSNR against the
 * source instead of 47.2), but moves saturated colours by up to 8 levels: the IIIF validator's
 * colour checks (tests/server/iiif/validatorLevel2.test.ts, within 5) then fail, at 80 too.
 */
function parseIiifJpegQuality(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 85;
  const quality = Number(value);
  if (!Number.isInteger(quality) || quality < 1 || quality > 100) {
    throw new Error(`FOLIA_IIIF_JPEG_QUALITY: not a whole number from 1 to 100: ${value}`);
  }
  return quality;
}

/**
 * FOLIA_SECRET_KEY, 64 hexadecimal characters (`openssl rand -hex 32`). The enterprise edition
 * keeps workers' secrets and will not start without it: secrets stored under one key cannot be
 * read under another, so a key made up at each start would lose them all.
 */
export function parseSecretsKey(value: string | undefined, enterprise: boolean): Buffer | null {
  const text = value?.trim() ?? '';
  if (!text) {
    if (!enterprise) return null;
    throw new Error(
      'FOLIA_SECRET_KEY is required with the enterprise feature: 64 hexadecimal characters ' +
        '(32 bytes, e.g. from `openssl rand -hex 32`) to encrypt secrets at rest',
    );
  }
  if (!/^[0-9a-fA-F]{64}$/.test(text)) {
    throw new Error(
      // The value itself stays out of the message: it is the key to every secret.
      `FOLIA_SECRET_KEY must be exactly 64 hexadecimal characters (32 bytes, e.g. from ` +
        `\`openssl rand -hex 32\`); the one given has ${text.length} characters`,
    );
  }
  return Buffer.from(text, 'hex');
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 8000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT: not a port: ${value}`);
  return port;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// URL (leave it unset for SQLite)');
  }
  const features = parseFeatures(env.FOLIA_FEATURES ?? DEFAULT_FEATURES);
  return {
    port: parsePort(env.PORT),
    host: env.HOST?.trim() || '127.0.0.1',
    dataDir: path.resolve(root, env.FOLIA_DATA_DIR?.trim() || 'data'),
    databaseUrl,
    databaseSchema: null,
    features,
    demo: env.FOLIA_DEMO !== '0',
    smtpUrl: env.SMTP_URL?.trim() || null,
    banner: parseBanner(env.FOLIA_BANNER),
    tlsCert: env.FOLIA_TLS_CERT?.trim() || null,
    tlsKey: env.FOLIA_TLS_KEY?.trim() || null,
    publicUrl: parsePublicUrl(env.FOLIA_PUBLIC_URL),
    corsOrigins: parseCorsOrigins(env.FOLIA_CORS_ORIGINS),
    distDir: path.resolve(root, env.FOLIA_DIST_DIR?.trim() || 'dist'),
    logger: env.FOLIA_LOG !== '0',
    agentTimeoutS: parseAgentTimeout(env.FOLIA_AGENT_TIMEOUT_S),
    iiifMemoryMb: parseIiifMemory(env.FOLIA_IIIF_MEMORY_MB),
    iiifJpegQuality: parseIiifJpegQuality(env.FOLIA_IIIF_JPEG_QUALITY),
    secretsKey: parseSecretsKey(env.FOLIA_SECRET_KEY, features.enterprise),
  };
}

export const VERSION = '1.9.0';
