import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useId, useState } from "react";
import { placedHref } from "#shared/features/links/constants.ts";
import { IMAGE_SIZES, type ImageFit, type ImageUrlFit } from "#shared/features/media/constants.ts";
import type { PublicOffer as OfferFields } from "#shared/features/offers/contract.ts";
import { moduleOffersRead } from "#shared/features/offers/reads.ts";
import { toVideoSource } from "#shared/features/offers/video-url.ts";
import { useOfferSeen } from "#web/features/analytics/beacon.ts";
import { AffiliateDisclosure, AffiliateLabel } from "#web/features/disclosure/disclosure.tsx";
import { ApiError, api, retryQuery } from "#web/lib/query-client.ts";
import { prefersReducedMotion } from "#web/lib/scroll.ts";
import { FitImage } from "#web/ui/fit-image.tsx";

/** An offer as the read serves it: with its picture's size and smaller copies. */
type PublicOffer = OfferFields & ImageUrlFit;

export type OfferPage = "module" | "module-complete" | "quiz-complete";

const PLACEHOLDER_IMAGE = "/seed/offers/placeholder.svg";

async function fetchOffers(moduleId: number, page: OfferPage): Promise<PublicOffer[]> {
  try {
    // The timestamp defeats any cache between us and the visitor.
    return await api<PublicOffer[]>(
      "GET",
      moduleOffersRead.key({ id: moduleId }, { fullRandom: "true", t: String(Date.now()) }),
    );
  } catch (error) {
    // On the completion pages a 401 simply means there is no offer to show.
    if (error instanceof ApiError && error.status === 401 && page !== "module") return [];
    throw error;
  }
}

/** The offer card (docs/product.md#offer-card): loading, then shown; hidden on error or when there are none. */
export function OfferCard({
  moduleId,
  page,
  heading,
  compact = false,
}: {
  moduleId: number;
  page: OfferPage;
  heading?: string;
  /** On a phone, a card of one size without its picture, video or description, so the lesson below starts on the first screen. */
  compact?: boolean;
}) {
  const kind = compact ? "offer-card compact" : "offer-card";
  const [shownId, setShownId] = useState<number | null>(null);
  const labelId = useId();
  const query = useQuery({
    queryKey: ["offers", moduleId, page],
    queryFn: () => fetchOffers(moduleId, page),
    // Random per visit: never reuse a cached answer, never refetch behind the visitor's back.
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: retryQuery(page === "quiz-complete" ? 0 : 1),
    retryDelay: 1000,
  });
  const offers = query.data ?? [];
  // 'Show different offer' asks again and avoids repeating the one on screen when it can.
  const offer = offers.find((o) => o.id !== shownId) ?? offers[0];
  const seenRef = useOfferSeen(offer?.id);

  // A heading over the card comes and goes with it: never a heading over nothing.
  const title = heading ? (
    <h2 className={query.isPending ? "offer-heading pending" : "offer-heading"}>{heading}</h2>
  ) : null;
  if (query.isPending) {
    return (
      <>
        {title}
        <aside className={`${kind} loading`} aria-label="Sponsored offer" aria-busy="true">
          <p>Loading offer…</p>
        </aside>
      </>
    );
  }
  if (query.isError || !offer) return null;
  // Decided in the browser only (a loaded card is never server-rendered): nothing of the
  // medium is fetched on a phone that would not show it.
  const small = compact && isPhone();

  return (
    <>
      {title}
      <aside className={kind} aria-label="Sponsored offer" ref={seenRef}>
        <p className="eyebrow">
          <AffiliateLabel id={labelId} kind="sponsored" /> <AffiliateDisclosure at="offer" />
        </p>
        {!small && hasMedia(offer) && (
          <div className="offer-media">
            <OfferMedia offer={offer} />
          </div>
        )}
        <h2 className="offer-title">{offer.title}</h2>
        {small ? null : offer.descriptionHtml ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server with the posts' allow-list when it is stored and when it is served.
          <div className="offer-description" dangerouslySetInnerHTML={{ __html: offer.descriptionHtml }} />
        ) : (
          <p>{offer.description}</p>
        )}
        <div className="offer-actions">
          {offer.linkText ? (
            <a
              href={placedHref(offer.linkUrl, "offer")}
              target="_blank"
              rel="sponsored noopener"
              role="button"
              aria-describedby={labelId}
            >
              {offer.linkText}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          ) : null}
          {/* On a phone above a lesson, one offer: the compact card keeps one row of one button. */}
          {!small && (
            <button
              type="button"
              className="secondary outline"
              onClick={() => {
                setShownId(offer.id);
                void query.refetch();
              }}
              disabled={query.isFetching}
            >
              Show different offer
            </button>
          )}
        </div>
      </aside>
    </>
  );
}

/** A phone-sized screen: the width the compact card's styles apply to. */
function isPhone(): boolean {
  return typeof window !== "undefined" && window.matchMedia?.("(max-width: 600px)").matches === true;
}

/** Whether the offer shows an embed, a video or an image (the box kept for it has a height of its own). */
function hasMedia(offer: PublicOffer): boolean {
  return Boolean((offer.useEmbed && offer.embedCode) || toVideoSource(offer.videoUrl) || offer.imageUrl);
}

/** The sites a piece of embed code names (where loading it sends requests), without "www.". */
function embedHosts(code: string): string[] {
  const hosts = new Set<string>();
  for (const match of code.matchAll(/(?:https?:)?\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)+)/gi))
    hosts.add((match[1] ?? "").toLowerCase().replace(/^www\./, ""));
  return [...hosts].filter(Boolean);
}

function hostOf(src: string): string {
  return new URL(src, window.location.href).hostname.replace(/^www\./, "");
}

/** What a video placeholder says: the site that will receive the request. */
function videoNotice(src: string): string {
  return `Plays from ${hostOf(src)}: loading it sends your address to that site.`;
}

function isOwn(src: string): boolean {
  return new URL(src, window.location.href).origin === window.location.origin;
}

/**
 * Stands in for a medium from another site until the visitor asks for it: nothing is requested
 * from that site before the click, and the placeholder says who will receive the request.
 */
function ClickToLoad({ notice, action, children }: { notice: string; action: string; children: ReactNode }) {
  const [loaded, setLoaded] = useState(false);
  if (loaded) return children;
  return (
    <div className="offer-placeholder">
      <p>{notice}</p>
      <button type="button" className="secondary" onClick={() => setLoaded(true)}>
        {action}
      </button>
    </div>
  );
}

/** An offer's medium in its own shape: an image at its natural ratio, a video or an embed at 16:9. */
function OfferMedia({ offer }: { offer: PublicOffer }) {
  if (offer.useEmbed && offer.embedCode) {
    const hosts = embedHosts(offer.embedCode);
    const notice = hosts.length
      ? `Loads from ${hosts.join(", ")}: loading it sends your address to ${hosts.length > 1 ? "those sites" : "that site"}.`
      : "Sponsored content. It may contact the sponsor's sites once loaded.";
    // The embed runs in its own sandboxed document (scripts and popups, never
    // same-origin), so it cannot read this page, its storage or its cookies.
    return (
      <ClickToLoad key={offer.id} notice={notice} action="Load content">
        <iframe
          className="offer-embed"
          src={`/embed/offer/${offer.id}`}
          title={`Sponsored: ${offer.title}`}
          sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox"
          referrerPolicy="no-referrer"
        />
      </ClickToLoad>
    );
  }
  const video = toVideoSource(offer.videoUrl);
  if (video?.kind === "youtube" || video?.kind === "vimeo") {
    return (
      <ClickToLoad key={offer.id} notice={videoNotice(video.src)} action="Load video">
        <iframe
          className="offer-video"
          src={video.src}
          title={`Video: ${offer.title}`}
          allow="autoplay; encrypted-media; picture-in-picture"
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </ClickToLoad>
    );
  }
  if (video?.kind === "file") {
    // A video on this site loads at once (never playing by itself); one on another site waits for a click.
    if (isOwn(video.src)) return <OfferVideo src={video.src} type={video.type} title={offer.title} />;
    return (
      <ClickToLoad key={offer.id} notice={videoNotice(video.src)} action="Load video">
        <OfferVideo src={video.src} type={video.type} title={offer.title} play />
      </ClickToLoad>
    );
  }
  if (offer.imageUrl) return <OfferImage src={offer.imageUrl} fit={offer.imageFit} />;
  return null;
}

function OfferImage({ src, fit }: { src: string; fit?: ImageFit | null }) {
  const [failed, setFailed] = useState(false);
  // A broken offer image falls back to a placeholder image.
  if (failed) return <img className="offer-image" src={PLACEHOLDER_IMAGE} alt="" />;
  return (
    <FitImage
      className="offer-image"
      src={src}
      fit={fit}
      sizes={IMAGE_SIZES.offer}
      alt=""
      loading="lazy"
      onError={() => setFailed(true)}
    />
  );
}

/**
 * Muted, looping, inline, with the player's controls. It never starts by itself, except right
 * after the visitor asked for it (play), and then not for a visitor who asks for reduced motion.
 */
function OfferVideo({ src, type, title, play = false }: { src: string; type: string; title: string; play?: boolean }) {
  const autoPlay = play && !prefersReducedMotion();
  return (
    <video
      className="offer-video"
      autoPlay={autoPlay}
      controls
      muted
      loop
      playsInline
      preload="metadata"
      aria-label={`Video: ${title}`}
    >
      <source src={src} type={type} />
    </video>
  );
}
