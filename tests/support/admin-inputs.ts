// Valid bodies for the admin API, one per kind of record. Tests change only the fields
// their case is about: `offerInput({ videoUrl: "https://youtu.be/..." })`.
import type { PostInput } from "#shared/features/blog/contract.ts";
import type { OfferInput } from "#shared/features/offers/contract.ts";
import type { RecommendedProduct } from "#shared/features/products/contract.ts";
import type { SiteSettings } from "#shared/features/settings/contract.ts";

export function offerInput(overrides: Partial<OfferInput> = {}) {
  return {
    title: "Offer",
    description: "Offer text",
    imageUrl: null,
    videoUrl: null,
    useEmbed: false,
    embedCode: null,
    linkUrl: "https://example.com/x",
    linkText: "Go",
    moduleId: 2,
    isActive: true,
    ...overrides,
  };
}

export function productInput(overrides: Partial<RecommendedProduct> = {}) {
  return {
    id: "custom_ab12cd34",
    name: "Ring light",
    description: "A soft, even light for your face.",
    link: "https://example.com/ring",
    price: "$40",
    badge: "ESSENTIAL",
    archetype: "Couple",
    isDefault: false,
    moduleId: null,
    ...overrides,
  };
}

export function postInput(overrides: Partial<PostInput> = {}) {
  return {
    title: "A New Post",
    slug: "a-new-post",
    content: "<p>Hello</p>",
    excerpt: "",
    category: null as string | null,
    coverImage: null,
    published: true,
    metaDescription: "",
    metaKeywords: "",
    ...overrides,
  };
}

export function settingsInput(overrides: Partial<SiteSettings> = {}) {
  return {
    brandName: "Velvet Start",
    platformA: { name: "Alpha", url: "https://alpha.example/" },
    platformB: { name: "Beta", url: "https://beta.example/" },
    bannerPlatform: "b",
    incomeFigure: "$2k+",
    modelsHelpedFigure: "500+",
    testimonialQuote: "The course helped me plan my first month.",
    testimonialAttribution: "Dana, Cosplay Babe archetype",
    bannerClaim: "{platform} pays out every week.",
    giftDiscountCode: "GRAD15",
    giftDiscountPartner: "Example Lights",
    giftDiscountPercent: 15,
    communityUrl: "https://community.example/",
    ...overrides,
  };
}
