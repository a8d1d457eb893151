/** vnu-jar's main module is the path of vnu.jar (a String object). */
declare module "vnu-jar" {
  const jar: string;
  export default jar;
}
