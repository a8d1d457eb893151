import { type TObject, Type } from "@sinclair/typebox";
import { cronProblem } from "#server/env.ts";
import { analyticsDaily, analyticsSalts, analyticsVisitors } from "#server/features/analytics/table.ts";
import { adminRecoveryCodes, adminUsers, runningInstances } from "#server/features/auth/table.ts";
import { BACKUP_FILE } from "#server/features/backups/files.ts";
import { backupRuns } from "#server/features/backups/table.ts";
import { blogCategories, blogPosts, blogRedirects } from "#server/features/blog/table.ts";
import { earningsResults } from "#server/features/earnings/table.ts";
import { editorAutosaves } from "#server/features/editor/table.ts";
import { setupConfirmations } from "#server/features/home/table.ts";
import { sharedLimits } from "#server/features/limits/table.ts";
import { links } from "#server/features/links/table.ts";
import { media, uploadDeletions } from "#server/features/media/table.ts";
import {
  MAX_UPLOAD_BYTES,
  ORIGINAL_UPLOAD_NAME,
  UPLOAD_COPY_NAME,
  UPLOAD_KINDS,
  UPLOAD_NAME,
} from "#server/features/media/uploads.ts";
import { affiliateOffers } from "#server/features/offers/table.ts";
import { recommendedProducts } from "#server/features/products/table.ts";
import { quizResults } from "#server/features/quiz/table.ts";
import { siteSettings } from "#server/features/settings/table.ts";
import { sitePages } from "#server/features/site-pages/table.ts";
import { FUNNEL_STEPS, METRICS } from "#shared/features/analytics/constants.ts";
import { LoginInput } from "#shared/features/auth/contract.ts";
import { BackupScheduleInput } from "#shared/features/backups/contract.ts";
import { CategoryInput, PostInput } from "#shared/features/blog/contract.ts";
import { EarningsResultInput } from "#shared/features/earnings/contract.ts";
import { AUTOSAVE_KEY_PATTERN, AutosaveInput } from "#shared/features/editor/contract.ts";
import { SetupItemParam } from "#shared/features/home/setup.ts";
import { LinkCreate, LinkSlug, LinkUpdate } from "#shared/features/links/contract.ts";
import { MAX_IMAGE_PIXELS } from "#shared/features/media/constants.ts";
import { MediaAltInput } from "#shared/features/media/contract.ts";
import { OfferInput } from "#shared/features/offers/contract.ts";
import { RecommendedProduct } from "#shared/features/products/contract.ts";
import { QuizResultInput } from "#shared/features/quiz/contract.ts";
import { PublicAddressInput, ResultRetentionInput, SiteSettings } from "#shared/features/settings/contract.ts";
import { LinkCheckInput } from "#shared/features/settings/link-checks.ts";
import { SitePage, SitePageInput } from "#shared/features/site-pages/contract.ts";
import { literalUnion } from "#shared/schema/common.ts";
import { ANY, type Rule, rule, storedValues, written } from "./stored-values.ts";

// Every column of every table, and the rule its values keep (see stored-values.ts): where the
// admin saves the value, the admin API's own schema, with its message; where the server writes
// it, what the server writes. docs/decisions/060-stored-values-keep-the-rules-they-were-saved-by.md
// gives the reasons column by column.

/**
 * The columns an admin form saves, each keeping the form's own rule and message as text the admin
 * writes (`written`): a column added to the table and its form has its rule without a line here.
 * The entries after it say where a column's rule is another.
 */
function savedByForm<S extends TObject>(form: S): Record<keyof S["properties"], Rule> {
  return Object.fromEntries(Object.entries(form.properties).map(([key, field]) => [key, written(field)])) as Record<
    keyof S["properties"],
    Rule
  >;
}

const whole = (minimum: number, maximum: number, error: string) => Type.Integer({ minimum, maximum, error });
const count = (what: string) => whole(0, Number.MAX_SAFE_INTEGER, `${what} is a whole number, 0 or more`);
const pattern = (source: string, error: string, maxLength = 200) => Type.String({ pattern: source, maxLength, error });

/** A UTC day as the counts name it. */
const Day = pattern("^\\d{4}-\\d{2}-\\d{2}$", "A day is written YYYY-MM-DD", 10);
/** A hex digest of `length` characters (a visitor hash, a salt, a recovery code's hash). */
const hex = (length: number) => pattern(`^[0-9a-f]{${length}}$`, `It is ${length} hexadecimal digits`, length);
/** A result's id: the server makes 22 URL-safe characters; the result pages accept up to 64. */
const ResultId = pattern("^[A-Za-z0-9_-]{1,64}$", "A result id is 1 to 64 letters, digits, - or _", 64);

// Names of files the server makes in the uploads folder: an original (`<id>.<ext>`) and its
// smaller copies (`<id>-w<width>.webp`). Only such names are ever opened or deleted.
const UploadName = pattern(
  ORIGINAL_UPLOAD_NAME.source,
  "An upload's name is one the server makes: 22 letters, digits, - or _ and its type",
  40,
);
const pixels = (what: string) => whole(1, MAX_IMAGE_PIXELS, `${what} is a whole number of pixels, from 1`);
const MediaVariants = Type.Array(
  Type.Object({
    name: pattern(
      UPLOAD_COPY_NAME.source,
      "A smaller copy's name is one the server makes: <upload id>-w<width>.webp",
      40,
    ),
    width: pixels("A copy's width"),
    height: pixels("A copy's height"),
    size: whole(1, MAX_UPLOAD_BYTES, "A copy's size is a whole number of bytes"),
  }),
  { maxItems: 10, error: "The smaller copies are a list of names, widths, heights and sizes" },
);

storedValues(siteSettings, {
  id: ANY,
  brandName: written(SiteSettings.properties.brandName),
  platformAName: written(SiteSettings.properties.platformA.properties.name),
  platformAUrl: written(SiteSettings.properties.platformA.properties.url),
  platformBName: written(SiteSettings.properties.platformB.properties.name),
  platformBUrl: written(SiteSettings.properties.platformB.properties.url),
  platformALinkSlug: LinkSlug,
  platformBLinkSlug: LinkSlug,
  bannerPlatform: SiteSettings.properties.bannerPlatform,
  incomeFigure: written(SiteSettings.properties.incomeFigure),
  modelsHelpedFigure: written(SiteSettings.properties.modelsHelpedFigure),
  testimonialQuote: written(SiteSettings.properties.testimonialQuote),
  testimonialAttribution: written(SiteSettings.properties.testimonialAttribution),
  bannerClaim: written(SiteSettings.properties.bannerClaim),
  giftDiscountCode: written(SiteSettings.properties.giftDiscountCode),
  giftDiscountPartner: written(SiteSettings.properties.giftDiscountPartner),
  giftDiscountPercent: SiteSettings.properties.giftDiscountPercent,
  // Graduates follow it.
  communityUrl: rule(SiteSettings.properties.communityUrl, { whenRead: true }),
  operatorName: written(SiteSettings.properties.operatorName),
  // The legal pages link to it: a restored value that is not an email or web address reads as none.
  operatorContact: rule(SiteSettings.properties.operatorContact, { whenRead: true }),
  // Links in feeds, the sitemap and search tags are built from it.
  publicOrigin: rule(PublicAddressInput.properties.origin, { whenRead: true }),
  publicOriginConfirmed: ANY,
  disclosureWording: SiteSettings.properties.disclosureWording,
  // Scheduled backups run on it.
  backupCron: rule(BackupScheduleInput.properties.cron, { whenRead: true, check: cronProblem }),
  backupKeep: BackupScheduleInput.properties.keep,
  linkCheckHours: LinkCheckInput.properties.hours,
  resultRetentionDays: ResultRetentionInput.properties.days,
  updatedAt: ANY,
});

storedValues(setupConfirmations, {
  item: SetupItemParam.properties.item,
  confirmedAt: ANY,
});

storedValues(sitePages, {
  slug: SitePage.properties.slug,
  title: written(SitePageInput.properties.title),
  description: written(SitePageInput.properties.description),
  // The page as served: rendered from the Markdown and cleaned by the server (and again when shown).
  body: ANY,
  bodyMarkdown: written(SitePageInput.properties.bodyMarkdown),
  inFooter: ANY,
  updatedAt: ANY,
});

storedValues(blogCategories, {
  ...savedByForm(CategoryInput),
  id: ANY,
  slug: CategoryInput.properties.slug,
});

storedValues(blogPosts, {
  ...savedByForm(PostInput),
  id: ANY,
  slug: PostInput.properties.slug,
  // Rendered from the Markdown and cleaned by the server (and cleaned again when shown).
  content: ANY,
  // Derived from the content on save, only ever searched.
  searchText: ANY,
  published: ANY,
  publishAt: ANY,
  createdAt: ANY,
  updatedAt: ANY,
});

storedValues(blogRedirects, {
  id: ANY,
  kind: rule(null, { fallback: "post" }),
  // A post's slug or a category's: the post's rule holds both (a category's is shorter).
  fromSlug: PostInput.properties.slug,
  toSlug: PostInput.properties.slug,
  createdAt: ANY,
});

storedValues(affiliateOffers, {
  ...savedByForm(OfferInput),
  id: ANY,
  useEmbed: ANY,
  linkSlug: LinkSlug,
  moduleId: OfferInput.properties.moduleId,
  isActive: ANY,
  archetype: OfferInput.properties.archetype,
  productId: OfferInput.properties.productId,
  createdAt: ANY,
  updatedAt: ANY,
});

storedValues(recommendedProducts, {
  ...savedByForm(RecommendedProduct),
  id: RecommendedProduct.properties.id,
  linkSlug: LinkSlug,
  archetype: RecommendedProduct.properties.archetype,
  isDefault: ANY,
  moduleId: RecommendedProduct.properties.moduleId,
  createdAt: ANY,
});

storedValues(links, {
  ...savedByForm(LinkCreate),
  id: ANY,
  slug: LinkSlug,
  active: ANY,
  createdAt: ANY,
  // What the link checker found.
  lastCheckedAt: ANY,
  lastStatus: whole(100, 999, "A status is a whole number from 100 to 999"),
  finalUrl: ANY,
  hopCount: whole(0, 100, "Redirects followed is a whole number from 0 to 100"),
  healthClass: ANY,
  consecutiveFailures: count("Failed checks in a row"),
  autoFallbackAfter: LinkUpdate.properties.autoFallbackAfter,
});

storedValues(
  media,
  {
    id: ANY,
    name: UploadName,
    mime: literalUnion(Object.keys(UPLOAD_KINDS), {
      error: `The type is one the server accepts: ${Object.keys(UPLOAD_KINDS).join(", ")}`,
    }),
    kind: rule(null, { fallback: "image" }),
    size: whole(1, MAX_UPLOAD_BYTES, "The size is a whole number of bytes, at most the largest upload"),
    width: pixels("The width"),
    height: pixels("The height"),
    alt: written(MediaAltInput.properties.alt),
    // Written by the server from the upload (a file name the client sent, a hash it computed).
    originalName: ANY,
    sha256: ANY,
    variants: MediaVariants,
    createdAt: ANY,
  },
  // An upload's copies are its own: deleting it deletes them.
  (row) => {
    const id = String(row.name).slice(0, 22);
    const other = (row.variants as { name: string }[]).find((v) => !v.name.startsWith(`${id}-`));
    return other ? { column: "variants", problem: `names a copy of another upload (${other.name})` } : null;
  },
);

storedValues(quizResults, {
  id: ResultId,
  archetype: QuizResultInput.properties.archetype,
  answers: rule(QuizResultInput.properties.answers, { fallback: [] }),
  createdAt: ANY,
});

storedValues(earningsResults, {
  id: ResultId,
  quizResultId: ResultId,
  tier: EarningsResultInput.properties.tier,
  estimatedEarnings: EarningsResultInput.properties.estimatedEarnings,
  score: EarningsResultInput.properties.score,
  answers: rule(EarningsResultInput.properties.answers, { fallback: [] }),
  createdAt: ANY,
});

storedValues(editorAutosaves, {
  key: pattern(AUTOSAVE_KEY_PATTERN, "An autosave's key names what is being edited, such as post:12", 70),
  body: rule(AutosaveInput.properties.body, { fallback: {} }),
  savedAt: ANY,
});

storedValues(backupRuns, {
  id: ANY,
  trigger: rule(null, { fallback: "manual" }),
  // A run whose record cannot be read did not end well as far as anyone can tell.
  status: rule(null, { fallback: "failed" }),
  startedAt: ANY,
  finishedAt: ANY,
  file: pattern(BACKUP_FILE.source, "A backup's name is one the server makes: cam-guide-<time>.<auto|manual>.tar"),
  size: count("A backup's size"),
  error: ANY,
});

storedValues(analyticsSalts, {
  day: Day,
  salt: hex(32),
  createdAt: ANY,
});

storedValues(analyticsVisitors, {
  day: Day,
  visitor: hex(32),
  steps: whole(0, 2 ** FUNNEL_STEPS.length - 1, "The funnel steps reached are one bit per step"),
});

storedValues(analyticsDaily, {
  day: Day,
  metric: literalUnion(Object.values(METRICS), { error: `A metric is one of: ${Object.values(METRICS).join(", ")}` }),
  // What each metric counts by: a page, a slug, a referrer's host, a campaign's label.
  key: ANY,
  count: count("A count"),
});

// Written only by a deletion of an upload kept in a bucket (features/media/registry.ts): the
// name of a file to remove from the bucket, an original or a smaller copy.
storedValues(uploadDeletions, {
  name: pattern(UPLOAD_NAME.source, "A file's name is one the server makes for an upload or its smaller copy", 40),
  deletedAt: ANY,
});

// Written only by features/limits/shared.ts, read only by it (a count, a time in ms, failure times).
storedValues(sharedLimits, {
  scope: ANY,
  key: ANY,
  value: ANY,
  state: ANY,
  expiresAt: ANY,
});

storedValues(adminUsers, {
  id: ANY,
  username: LoginInput.properties.username,
  // Signing in reads it: one that is not a hash is logged, and matches no password.
  passwordHash: rule(
    pattern("^\\$(argon2(id|i|d)|2[abxy])\\$", "The password is stored as an argon2 or bcrypt hash", 1000),
    {
      whenRead: true,
    },
  ),
  tokenVersion: count("The token version"),
  totpSecret: pattern("^[A-Z2-7]{16,128}$", "A two-factor secret is base32 text"),
  totpPendingSecret: pattern("^[A-Z2-7]{16,128}$", "A two-factor secret is base32 text"),
  totpLastStep: count("The last time step"),
  totpEnabledAt: ANY,
  signInChallenge: ANY,
  signInChallengeFailures: count("Wrong codes"),
  createdAt: ANY,
  updatedAt: ANY,
});

// Written only by features/auth/instances.ts: an instance's id and its check of JWT_SECRET.
storedValues(runningInstances, {
  id: ANY,
  secretCheck: hex(64),
  seenAt: ANY,
});

storedValues(adminRecoveryCodes, {
  id: ANY,
  adminId: ANY,
  codeHash: hex(64),
  used: ANY,
  usedAt: ANY,
  createdAt: ANY,
});
